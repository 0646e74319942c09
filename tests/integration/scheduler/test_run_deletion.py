"""A deleted run is announced (``run.deleted``): the scheduler drops its rows, tracking its
metric points; each confirms once. Its uuid is never a run again."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.rpcs import Scheduler
from axonal_testing.bus import drained, read_stream
from axonal_testing.waiting import wait_for
from axonal_tracking.app import build_app as build_tracking
from axonal_tracking.settings import TrackingSettings

from .test_reads import JOB
from .test_tracked import track


async def test_a_deleted_run_leaves_the_scheduler_and_tracking(
    scheduler, service_settings, running_service, database_url
):
    await running_service(build_tracking(service_settings(TrackingSettings)))
    js, subjects = scheduler.nc.jetstream(), scheduler.subjects
    run_uuid = await scheduler.submit(JOB + "isApproved: false\n")
    await scheduler.wait_status(run_uuid, "created")
    at = datetime.now(UTC).isoformat()
    points = [{"name": "loss", "step": s, "value": 1.0, "at": at} for s in range(10)]
    body = json.dumps({"run_uuid": run_uuid, "points": points}).encode()
    await js.publish(subjects.ingest(f"metrics.{run_uuid}"), body)
    ingest = subjects.stream_name(StreamKind.INGEST)
    await wait_for(lambda: drained(js, ingest, "tracking-metrics"), message="points stored")

    await scheduler.act("delete", run_uuid)
    events = subjects.stream_name(StreamKind.EVENTS)

    async def confirmed() -> list[str] | None:
        found = await read_stream(js, events, subjects.event("deletion.completed"))
        done = [json.loads(data)["data"] for _, data, _ in found]
        services = sorted(d["service"] for d in done if d["target"] == run_uuid)
        return services if len(services) == 2 else None

    assert await wait_for(confirmed, message="both confirmed") == ["scheduler", "tracking"]
    [(_, announced, _)] = await read_stream(js, events, subjects.event("run.deleted"))
    assert json.loads(announced)["data"]["run_uuid"] == run_uuid
    conn = await connect(database_url)
    try:
        for table in ("scheduler.runs", "tracking.runs"):
            column = "uuid"
            assert not await conn.fetchval(
                f"SELECT count(*) FROM {table} WHERE {column} = $1",
                run_uuid,
            )
        assert not await conn.fetchval(
            "SELECT count(*) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
        )
    finally:
        await conn.close()

    with pytest.raises(RemoteError, match="was deleted") as again:
        await rpc.call(scheduler.nc, subjects, Scheduler.track_run, track(run_uuid))
    assert again.value.code is ErrorCode.CONFLICT
