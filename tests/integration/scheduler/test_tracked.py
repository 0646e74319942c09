"""Runs tracked from the SDK over RPC: created running, merged into, ended; and refusals."""

import uuid

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode
from axonal_events.rpcs import Scheduler
from axonal_events.runs import EndRun, TrackRun, UpdateRun

JOB = """
version: 1.1
kind: component
name: train
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""


def call(scheduler, method, request):
    return rpc.call(scheduler.nc, scheduler.subjects, method, request)


def track(run_uuid, project="demo", **fields):
    return TrackRun(run_uuid=run_uuid, owner="acme", project=project, **fields)


async def test_a_tracked_run_is_created_running_merged_into_and_ended(scheduler):
    run_uuid = uuid.uuid4().hex
    run = await call(scheduler, Scheduler.track_run, track(run_uuid, name="nb", tags=["a"]))
    assert (run.status, run.managed, run.tags) == ("running", False, ["a"])
    again = await call(scheduler, Scheduler.track_run, track(run_uuid, name="other"))
    assert (again.uuid, again.name) == (run_uuid, "nb")  # a repeated create finds it

    update = UpdateRun(run_uuid=run_uuid, outputs={"loss": 0.5}, tags=["b", "a"], progress=0.5)
    updated = await call(scheduler, Scheduler.update_run, update)
    assert (updated.outputs, updated.tags, updated.progress) == ({"loss": 0.5}, ["a", "b"], 0.5)

    end = EndRun(run_uuid=run_uuid, status="succeeded", message="done")
    ended = await call(scheduler, Scheduler.end_run, end)
    assert (ended.status, ended.reason, ended.message) == ("succeeded", "Ended", "done")
    twice = await call(scheduler, Scheduler.end_run, EndRun(run_uuid=run_uuid, status="failed"))
    assert twice.status == "succeeded"


async def test_a_uuid_of_another_project_or_a_deleted_run_is_a_conflict(scheduler):
    run_uuid = uuid.uuid4().hex
    await call(scheduler, Scheduler.track_run, track(run_uuid))
    with pytest.raises(RemoteError, match="another project") as other:
        await call(scheduler, Scheduler.track_run, track(run_uuid, project="elsewhere"))
    assert other.value.code is ErrorCode.CONFLICT

    await scheduler.act("delete", run_uuid)
    await scheduler.wait_deleted(run_uuid)
    with pytest.raises(RemoteError, match="was deleted") as deleted:
        await call(scheduler, Scheduler.track_run, track(run_uuid))
    assert deleted.value.code is ErrorCode.CONFLICT


async def test_a_missing_run_is_not_found(scheduler):
    missing = uuid.uuid4().hex
    for method, request in (
        (Scheduler.update_run, UpdateRun(run_uuid=missing, tags=["x"])),
        (Scheduler.end_run, EndRun(run_uuid=missing, status="succeeded")),
    ):
        with pytest.raises(RemoteError, match=f"run {missing} does not exist") as raised:
            await call(scheduler, method, request)
        assert raised.value.code is ErrorCode.NOT_FOUND


async def test_a_run_an_agent_executes_cannot_be_ended_by_hand(scheduler):
    run_uuid = await scheduler.submit(JOB)
    await scheduler.wait_status(run_uuid, "scheduled")
    with pytest.raises(RemoteError, match="executed by an agent") as refused:
        await call(scheduler, Scheduler.end_run, EndRun(run_uuid=run_uuid, status="succeeded"))
    assert refused.value.code is ErrorCode.CONFLICT
    assert (await scheduler.get(run_uuid)).status == "scheduled"
