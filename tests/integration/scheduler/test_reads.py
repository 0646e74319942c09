"""RPCs (get, list, statuses, logs), the logs consumer, the cache, skip and delete."""

import uuid
from datetime import UTC, datetime

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode
from axonal_events.logs import LogBatch, LogRecord
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun, ListRuns, ReadLogs, TrackRun
from axonal_testing.waiting import wait_for

JOB = """
version: 1.1
kind: component
name: train
run:
  kind: job
  container: {image: python, command: [python, -c, "print(1)"]}
"""


async def call(scheduler, method, payload):
    return await rpc.call(scheduler.nc, scheduler.subjects, method, payload)


async def test_list_statuses_and_missing_runs(scheduler):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    uuids = [await scheduler.submit(JOB, name=f"r{i}") for i in range(3)]
    for run_uuid in uuids:
        await scheduler.wait_status(run_uuid, "succeeded")
    page = await call(
        scheduler, Scheduler.list_runs, ListRuns(owner="acme", project="demo", limit=2)
    )
    assert page.total == 3
    assert len(page.runs) == 2
    assert page.runs[0].created_at >= page.runs[1].created_at
    done = await call(
        scheduler,
        Scheduler.list_runs,
        ListRuns(owner="acme", project="demo", status="succeeded", limit=1000),
    )
    assert {r.uuid for r in done.runs} == set(uuids)
    history = await call(scheduler, Scheduler.statuses, GetRun(run_uuid=uuids[0]))
    assert [c.status for c in history.changes] == [
        "created",
        "compiled",
        "queued",
        "scheduled",
        "starting",  # recorded by the scheduler: this agent reported running at once
        "running",
        "succeeded",
    ]
    for method in (Scheduler.get_run, Scheduler.statuses):
        with pytest.raises(RemoteError, match="does not exist") as missing:
            await call(scheduler, method, GetRun(run_uuid="f" * 32))
        assert missing.value.code is ErrorCode.NOT_FOUND
    with pytest.raises(RemoteError) as missing:
        await call(scheduler, Scheduler.logs, ReadLogs(run_uuid="f" * 32))
    assert missing.value.code is ErrorCode.NOT_FOUND


DAG = """
version: 1.1
kind: operation
name: pipe
component:
  run:
    kind: dag
    operations:
      - name: only
        component: {run: {kind: job, container: {image: python, command: [echo]}}}
"""


async def test_list_filters_by_kind_tags_name_and_creation_time(scheduler):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]

    async def track(name, *tags):
        request = TrackRun(
            run_uuid=uuid.uuid4().hex, owner="acme", project="demo", name=name, tags=list(tags)
        )
        return await call(scheduler, Scheduler.track_run, request)

    resnet = await track("Train-ResNet", "cv", "gpu")
    evaluate = await track("eval", "cv")
    await track(None, "gpu")
    pipe = await scheduler.submit(DAG)
    await scheduler.wait_status(pipe, "succeeded")

    async def listed(**filters):
        query = ListRuns(owner="acme", project="demo", limit=1000, **filters)
        page = await call(scheduler, Scheduler.list_runs, query)
        assert page.total == len(page.runs)
        return {run.uuid for run in page.runs}

    assert await listed(kind="dag") == {pipe}
    assert await listed(tags=["cv"]) == {resnet.uuid, evaluate.uuid}
    assert await listed(tags=["gpu", "cv"]) == {resnet.uuid}  # every tag, in any order
    assert await listed(tags=["cv", "nope"]) == set()
    assert await listed(name="resnet") == {resnet.uuid}  # a part, in any case
    assert await listed(name="%") == set()  # not a LIKE pattern
    after = await listed(created_after=evaluate.created_at)
    assert evaluate.uuid in after
    assert resnet.uuid not in after
    before = await listed(created_before=evaluate.created_at)
    assert resnet.uuid in before
    assert evaluate.uuid not in before
    assert await listed(kind="job", tags=["cv"], name="EVAL") == {evaluate.uuid}


async def test_a_read_run_has_its_compiled_spec_and_agent(scheduler):
    scheduler.agent.script = lambda cmd: [("running", {}), ("succeeded", {})]
    run_uuid = await scheduler.submit(JOB)
    run = await scheduler.wait_status(run_uuid, "succeeded")
    assert run.agent == "fake"
    assert run.compiled is not None
    assert run.compiled["run"]["kind"] == "job"
    page = await call(scheduler, Scheduler.list_runs, ListRuns(owner="acme", project="demo"))
    assert [r.compiled for r in page.runs] == [None]  # a list stays small


async def test_logs_are_stored_once_and_served(scheduler):
    run_uuid = await scheduler.submit(JOB)
    await scheduler.wait_status(run_uuid, "scheduled")
    now = datetime.now(UTC)
    batch = LogBatch(
        run_uuid=run_uuid,
        attempt=1,
        records=[LogRecord(seq=i, at=now, stream="stdout", line=f"line {i}") for i in (1, 2, 3)],
    )
    subject = scheduler.subjects.ingest(f"logs.{run_uuid}")
    for msg_id in ("a", "b"):  # a redelivery under another message id inserts nothing
        headers = {"Nats-Msg-Id": f"{run_uuid}:1:1:{msg_id}"}
        await scheduler.js.publish(subject, batch.model_dump_json().encode(), headers=headers)

    async def lines():
        page = await call(scheduler, Scheduler.logs, ReadLogs(run_uuid=run_uuid))
        return page if len(page.lines) == 3 else None

    page = await wait_for(lines, message="3 log lines")
    assert [line.line for line in page.lines] == ["line 1", "line 2", "line 3"]
    assert not page.done
    after = await call(scheduler, Scheduler.logs, ReadLogs(run_uuid=run_uuid, after=2))
    assert [line.seq for line in after.lines] == [3]
    await scheduler.agent.report(run_uuid, 1, "succeeded")


async def test_logs_are_done_only_once_every_reported_line_is_stored(scheduler):
    """The final report can overtake the last log batch: ``done`` waits for the line count."""
    run_uuid = await scheduler.submit(JOB)
    await scheduler.wait_status(run_uuid, "scheduled")
    await scheduler.agent.report(run_uuid, 1, "running")
    await publish_lines(scheduler, run_uuid, 1, 2, 3)
    await scheduler.agent.report(run_uuid, 1, "succeeded", log_lines=5)
    await scheduler.wait_status(run_uuid, "succeeded")
    page = await wait_for(lambda: read_if(scheduler, run_uuid, 3), message="3 log lines")
    assert not page.done  # lines 4 and 5 are still on their way
    await publish_lines(scheduler, run_uuid, 4, 5)
    page = await wait_for(lambda: read_if(scheduler, run_uuid, 5), message="5 log lines")
    assert page.done


async def publish_lines(scheduler, run_uuid, *seqs):
    now = datetime.now(UTC)
    records = [LogRecord(seq=i, at=now, stream="stdout", line=f"line {i}") for i in seqs]
    batch = LogBatch(run_uuid=run_uuid, attempt=1, records=records)
    subject = scheduler.subjects.ingest(f"logs.{run_uuid}")
    headers = {"Nats-Msg-Id": f"{run_uuid}:1:{seqs[0]}"}
    await scheduler.js.publish(subject, batch.model_dump_json().encode(), headers=headers)


async def read_if(scheduler, run_uuid, count):
    page = await call(scheduler, Scheduler.logs, ReadLogs(run_uuid=run_uuid))
    return page if len(page.lines) == count else None


async def test_cache_hit_finishes_at_once(scheduler):
    text = JOB.replace("print(1)", "print(2)") + "cache: {ttl: 3600}\n"  # a new cache key
    scheduler.agent.script = lambda cmd: [("succeeded", {"outputs": {"acc": 0.9}})]
    first = await scheduler.submit(text)
    await scheduler.wait_status(first, "succeeded")
    second = await scheduler.submit(text)
    hit = await scheduler.wait_status(second, "succeeded")
    assert hit.cache_hit_of == first
    assert hit.outputs == {"acc": 0.9}
    assert len(scheduler.agent.received) == 1


async def test_skip_and_delete(scheduler):
    run_uuid = await scheduler.submit(JOB + "isApproved: false\n")
    await scheduler.wait_status(run_uuid, "created")
    await scheduler.act("skip", run_uuid)
    await scheduler.wait_status(run_uuid, "skipped")
    await scheduler.act("delete", run_uuid)
    await scheduler.act("delete", run_uuid)
    await scheduler.wait_deleted(run_uuid)
