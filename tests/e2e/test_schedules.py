"""Schedules on the embedded stack, through the CLI: an interval fires its runs on time, a
cron fires at the minute boundary, a backfill creates each past slot's run once, and
``dependsOnPast`` holds the next firing while the previous run fails."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import time
from datetime import datetime, timedelta
from typing import Any

from axonal_testing.waiting import wait_for_sync

from .lifecycle_support import User

OK = [sys.executable, "-c", "print('tick')"]


def scheduled(schedule: str, name: str, command: list[str] = OK) -> str:
    return f"""
version: 1.1
kind: operation
name: {name}
schedule: {schedule}
component:
  run:
    kind: job
    container: {{image: python, command: {json.dumps(command)}}}
"""


def created(runs: dict[str, dict[str, Any]]) -> list[datetime]:
    return sorted(datetime.fromisoformat(run["created_at"]) for run in runs.values())


def schedule_of(user: User, run_uuid: str) -> dict[str, Any]:
    listed = user.cli_json("schedules", "ls")["schedules"]
    return next(item for item in listed if item["run_uuid"] == run_uuid)


def test_schedules_fire_on_time_and_a_backfill_creates_each_slot_once(user: User) -> None:
    minutely = user.run(scheduled("{kind: cron, cron: '* * * * *'}", "minutely"))
    every = user.run(scheduled("{kind: interval, frequency: 2, maxRuns: 3}", "every-2s"))

    run = user.wait_status(every, "succeeded", timeout=60)
    assert run["reason"] == "ScheduleFinished", run
    kids = user.children(every)
    assert len(kids) == 3, kids
    assert all(kid["status"] == "succeeded" for kid in kids.values()), kids
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(created(kids))]
    assert all(1.7 < gap < 2.8 for gap in gaps), gaps
    assert schedule_of(user, every)["fired"] == 3

    cron = schedule_of(user, minutely)
    boundary = datetime.fromisoformat(cron["next_fire_at"])
    earlier = {kid["uuid"] for kid in user.children(minutely).values()}  # fired already
    assert (boundary.second, boundary.microsecond) == (0, 0), cron
    paused = user.cli_json("schedules", "pause", minutely)
    assert paused["paused"] is True
    assert user.cli_json("schedules", "resume", minutely)["paused"] is False

    start = boundary - timedelta(minutes=10)
    window = ("--from", start.isoformat(), "--to", (start + timedelta(minutes=2)).isoformat())
    first = user.cli_json("schedules", "backfill", minutely, *window)
    assert first["created"] == 3, first  # the slots at 0, 1 and 2 minutes
    again = user.cli_json("schedules", "backfill", minutely, *window)
    assert (again["created"], again["run_uuids"]) == (0, first["run_uuids"])

    def fired_live() -> list[dict[str, Any]]:
        kids = user.children(minutely).values()
        return [kid for kid in kids if kid["uuid"] not in {*first["run_uuids"], *earlier}]

    [live] = wait_for_sync(fired_live, timeout=80, message="the minute boundary fired")
    late = datetime.fromisoformat(live["created_at"]) - boundary
    assert timedelta(0) <= late < timedelta(seconds=1), late
    removed = user.cli_json("schedules", "rm", minutely)
    assert removed["action"] == "stop"
    user.wait_status(minutely, "stopped")


def test_depends_on_past_holds_the_next_firing_until_resumed(user: User) -> None:
    fails = [sys.executable, "-c", "raise SystemExit(3)"]
    every = "{kind: interval, frequency: 1, maxRuns: 2, dependsOnPast: true}"
    text = scheduled(every, "chain", fails)
    uuid = user.run(text)

    def held() -> dict[str, Any] | None:
        item = schedule_of(user, uuid)
        return item if item["waiting_on"] else None

    item = wait_for_sync(held, timeout=30, message="the schedule held by its failed run")
    [kid] = user.children(uuid).values()
    assert (kid["status"], item["waiting_on"]) == ("failed", kid["uuid"])
    time.sleep(2.5)  # two slots pass: nothing fires
    assert len(user.children(uuid)) == 1
    user.cli_json("schedules", "resume", uuid)  # released: the held slot fires now
    run = user.wait_status(uuid, "succeeded", timeout=30)
    assert run["reason"] == "ScheduleFinished"
    assert len(user.children(uuid)) == 2


def test_a_second_scheduler_replica_fires_no_slot_twice(user: User, tmp_path) -> None:
    stack = user.stack
    env = {
        **os.environ,
        **stack.env,
        "AXONAL_HOME": str(stack.home),
        "AXONAL_NATS_URL": stack.nats_url,
        "AXONAL_DATABASE_URL": stack.database_url,
        "AXONAL_NAMESPACE": str(stack.status.get("namespace") or "axonal"),
        "AXONAL_LOG_JSON": "true",
    }
    log = tmp_path / "replica.log"
    with log.open("wb") as out:
        replica = subprocess.Popen(
            [sys.executable, "-m", "axonal_scheduler"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
        try:
            started = lambda: b"service.started" in log.read_bytes()  # noqa: E731
            wait_for_sync(started, timeout=60, message="a second scheduler replica up")
            uuid = user.run(scheduled("{kind: interval, frequency: 1, maxRuns: 5}", "twice"))
            run = user.wait_status(uuid, "succeeded", timeout=60)
        finally:
            replica.terminate()
            replica.wait(15)
    assert run["reason"] == "ScheduleFinished", run
    kids = user.children(uuid)
    assert len(kids) == 5, kids  # a slot fired by both would count twice: fewer runs
    gaps = [(b - a).total_seconds() for a, b in itertools.pairwise(created(kids))]
    assert all(0.7 < gap < 1.8 for gap in gaps), gaps
