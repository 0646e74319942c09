"""Schedules: the durable clock fires each slot once, on time, across replicas."""

import asyncio
import itertools
from datetime import datetime

from axonal_scheduler.settings import SchedulerSettings
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for

from .conftest import Client


def scheduled(schedule: str, name: str = "nightly") -> str:
    return f"""
version: 1.1
kind: operation
name: {name}
schedule: {schedule}
component:
  run: {{kind: job, container: {{image: python, command: [echo, tick]}}}}
"""


def happy(cmd):
    return [("running", {}), ("succeeded", {})]


def slot_gaps(kids) -> list[float]:
    created = sorted(datetime.fromisoformat(str(k.created_at)) for k in kids)
    return [(b - a).total_seconds() for a, b in itertools.pairwise(created)]


async def test_an_interval_fires_max_runs_runs_then_the_schedule_finishes(scheduler: Client):
    scheduler.agent.script = happy
    uuid = await scheduler.submit(scheduled("{kind: interval, frequency: 1, maxRuns: 3}"))
    run = await scheduler.wait_status(uuid, "succeeded", timeout=20)
    assert (run.kind, run.reason) == ("schedule", "ScheduleFinished")
    kids = list((await scheduler.children(uuid)).values())
    assert len(kids) == 3
    assert all(k.status == "succeeded" and k.kind == "job" for k in kids)
    assert all(k.name.startswith("nightly-") for k in kids)
    assert all(0.8 < gap < 1.5 for gap in slot_gaps(kids)), slot_gaps(kids)


async def test_two_replicas_fire_each_slot_once(
    scheduler: Client, service_settings, nats_client, tmp_path
):
    settings = service_settings(SchedulerSettings)
    with (tmp_path / "replica.log").open("wb") as log:
        second = service_process("axonal_scheduler", settings, log)  # same tables and durables
        try:
            started = lambda: b"service.started" in (tmp_path / "replica.log").read_bytes()  # noqa: E731
            await wait_for(started, timeout=30, message="the replica is up")
            scheduler.agent.script = happy
            text = scheduled("{kind: interval, frequency: 1, maxRuns: 5}")
            uuid = await scheduler.submit(text)
            await scheduler.wait_status(uuid, "succeeded", timeout=30)
        finally:
            await stop_when_up(nats_client, settings.subjects, "scheduler", second)
    kids = list((await scheduler.children(uuid)).values())
    # a slot fired twice would count twice towards maxRuns: fewer than 5 distinct runs
    assert len(kids) == 5
    assert all(0.8 < gap < 1.5 for gap in slot_gaps(kids)), slot_gaps(kids)


async def test_depends_on_past_holds_the_next_firing_while_the_previous_run_fails(
    scheduler: Client,
):
    scheduler.agent.script = lambda cmd: [("running", {}), ("failed", {"exit_code": 1})]
    text = scheduled("{kind: interval, frequency: 1, maxRuns: 3, dependsOnPast: true}")
    uuid = await scheduler.submit(text)

    async def one_failed():
        kids = await scheduler.children(uuid)
        return next((k for k in kids.values() if k.status == "failed"), None)

    first = await wait_for(one_failed, message="the first run failed")
    await asyncio.sleep(2.5)  # two slots pass
    assert len(await scheduler.children(uuid)) == 1  # held: nothing fired since
    scheduler.agent.script = happy
    await scheduler.act("resume", first.uuid)  # the run succeeds now: the schedule goes on
    run = await scheduler.wait_status(uuid, "succeeded", timeout=20)
    kids = await scheduler.children(uuid)
    assert len(kids) == 3
    assert run.reason == "ScheduleFinished"


async def test_a_stopped_schedule_fires_no_more(scheduler: Client):
    scheduler.agent.script = happy
    uuid = await scheduler.submit(scheduled("{kind: interval, frequency: 1}"))

    async def fired_twice() -> bool:
        return len(await scheduler.children(uuid)) >= 2

    await wait_for(fired_twice, message="two runs")
    await scheduler.act("stop", uuid)
    await scheduler.wait_status(uuid, "stopped")
    count = len(await scheduler.children(uuid))
    await asyncio.sleep(2.5)  # two slots pass
    assert len(await scheduler.children(uuid)) == count


async def test_a_bad_schedule_fails_with_why(scheduler: Client):
    uuid = await scheduler.submit(scheduled("{kind: cron, cron: '0 25 * * *'}"))
    run = await scheduler.wait_status(uuid, "failed")
    assert "schedule.cron" in (run.message or "")


async def test_a_dag_op_with_a_schedule_fires_its_runs_then_the_dag_ends(scheduler: Client):
    scheduler.agent.script = happy
    uuid = await scheduler.submit("""
version: 1.1
kind: operation
name: nightly-dag
component:
  run:
    kind: dag
    operations:
    - name: ticks
      schedule: {kind: interval, frequency: 1, maxRuns: 2}
      component: {run: {kind: job, container: {image: python, command: [echo, tick]}}}
""")
    await scheduler.wait_status(uuid, "succeeded", timeout=20)
    ticks = (await scheduler.children(uuid))["ticks"]
    assert (ticks.kind, ticks.status, ticks.reason) == ("schedule", "succeeded", "ScheduleFinished")
    assert len(await scheduler.children(ticks.uuid)) == 2
