"""Retention on real NATS and PostgreSQL: a project's expired traces, observations, scores and
metric points go in batches while ingestion goes on, and only those."""

from __future__ import annotations

import asyncio
import json
import uuid
from datetime import UTC, datetime, timedelta

import pytest_asyncio

from axonal_bus.outbox import event_headers
from axonal_db import connect
from axonal_events import StreamKind, new_event
from axonal_events.catalog import ProjectRetentionChanged
from axonal_events.retention import RetentionPolicy
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_testing.bus import drained
from axonal_testing.waiting import wait_for
from axonal_tracking.app import build_app
from axonal_tracking.settings import TrackingSettings

from .conftest import create_run, send

PROJECT_ID = "0190aaaa-bbbb-7ccc-8ddd-000000000030"
OTHER_ID = "0190aaaa-bbbb-7ccc-8ddd-000000000031"  # no retention: nothing of it goes
SLUG = "acme/kept-30"
NOW = datetime.now(UTC)
OLD = NOW - timedelta(days=45)


@pytest_asyncio.fixture
async def tracking(service_settings, running_service) -> TrackingSettings:
    # small batches, frequent passes: many short transactions while ingestion goes on
    settings = service_settings(TrackingSettings, retention_every=0.2, retention_batch=25)
    await running_service(build_app(settings))
    return settings


def trace_batch(project_id: str, prefix: str, when: datetime, count: int) -> bytes:
    ids = [f"{prefix}-{uuid.uuid4().hex[:12]}" for _ in range(count)]
    batch = TraceBatch(
        project_id=project_id,
        project=SLUG if project_id == PROJECT_ID else "acme/other",
        received_at=when,
        traces=[TraceRecord(id=i, event_time=when, timestamp=when, name=prefix) for i in ids],
        observations=[
            ObservationRecord(id=f"o-{i}", trace_id=i, event_time=when, start_time=when)
            for i in ids
        ],
        scores=[
            ScoreRecord(
                id=f"s-{i}", event_time=when, timestamp=when, name="q", value=1.0, trace_id=i
            )
            for i in ids
        ],
    )
    return batch.model_dump_json(exclude_none=True).encode()


async def publish_traces(js, subjects, project_id: str, payload: bytes) -> None:
    headers = {"Nats-Msg-Id": uuid.uuid4().hex}
    await js.publish(subjects.ingest(f"traces.{project_id}"), payload, headers=headers)


def points(run_uuid: str, steps: range, when: datetime) -> bytes:
    at = when.isoformat()
    rows = [{"name": "loss", "step": s, "value": 1.0, "at": at} for s in steps]
    return json.dumps({"run_uuid": run_uuid, "points": rows}).encode()


async def counts(database_url: str, run_uuid: str) -> dict[str, int]:
    """Rows of the project per table and age (``old`` before the cutoff, ``new`` after)."""
    conn = await connect(database_url)
    cutoff = NOW - timedelta(days=30)
    try:
        found = {}
        for table, column in (
            ("traces", "timestamp"),
            ("observations", "start_time"),
            ("scores", "timestamp"),
        ):
            for project_id, who in ((PROJECT_ID, ""), (OTHER_ID, "other-")):
                row = await conn.fetchrow(
                    f"SELECT count(*) FILTER (WHERE {column} < $2) AS old, "
                    f"count(*) FILTER (WHERE {column} >= $2) AS new "
                    f"FROM tracking.{table} WHERE project_id = $1",
                    project_id,
                    cutoff,
                )
                found[f"{who}{table}.old"], found[f"{who}{table}.new"] = row["old"], row["new"]
        row = await conn.fetchrow(
            "SELECT count(*) FILTER (WHERE at < $2) AS old, count(*) FILTER (WHERE at >= $2) "
            "AS new FROM tracking.metric_points WHERE run_uuid = $1",
            run_uuid,
            cutoff,
        )
        found["points.old"], found["points.new"] = row["old"], row["new"]
        return found
    finally:
        await conn.close()


async def test_retention_removes_exactly_the_expired_rows_while_ingestion_goes_on(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects, project=SLUG)
    for n in range(8):  # 8 x 40 expired traces (each with an observation and a score)
        await publish_traces(js, subjects, PROJECT_ID, trace_batch(PROJECT_ID, "old", OLD, 40))
        await publish_traces(js, subjects, OTHER_ID, trace_batch(OTHER_ID, "old", OLD, 5))
        await send(js, subjects, run_uuid, points(run_uuid, range(n * 100, n * 100 + 100), OLD))
    stream = subjects.stream_name(StreamKind.INGEST)
    for durable in ("tracking-traces", "tracking-metrics"):
        await wait_for(lambda d=durable: drained(js, stream, d), timeout=60, message="ingested")

    sent = {"new": 0, "points": 0}
    stop = asyncio.Event()

    async def ingest() -> None:
        """New traces and points, every few milliseconds, until told to stop."""
        step = 10_000
        while not stop.is_set():
            await publish_traces(js, subjects, PROJECT_ID, trace_batch(PROJECT_ID, "new", NOW, 10))
            await send(js, subjects, run_uuid, points(run_uuid, range(step, step + 20), NOW))
            sent["new"] += 10
            sent["points"] += 20
            step += 20
            await asyncio.sleep(0.02)  # the load's pace, not a wait for a state

    feeding = asyncio.create_task(ingest())
    # ingestion is under way when the retention arrives
    await wait_for(lambda: sent["new"] >= 100, message="ingestion under way")
    policy = RetentionPolicy(traces=30, observations=30, scores=30, metrics=30)
    changed = ProjectRetentionChanged(
        project_id=PROJECT_ID, owner="acme", name="kept-30", retention=policy
    )
    event = new_event(changed, source="/test", project=SLUG)
    await js.publish(
        subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
    )

    async def expired_gone() -> dict[str, int] | None:
        found = await counts(database_url, run_uuid)
        old = ("traces.old", "observations.old", "scores.old", "points.old")
        return found if all(found[k] == 0 for k in old) else None

    try:
        during = await wait_for(expired_gone, timeout=60, message="the expired rows deleted")
    finally:
        stop.set()
        await feeding
    assert during["traces.new"] > 0  # the pass ran while new traces were coming in

    for durable in ("tracking-traces", "tracking-metrics"):
        await wait_for(lambda d=durable: drained(js, stream, d), timeout=60, message="ingested")
    found = await counts(database_url, run_uuid)
    assert found["traces.new"] == found["observations.new"] == found["scores.new"] == sent["new"]
    assert found["points.new"] == sent["points"]
    assert found["traces.old"] == found["observations.old"] == found["scores.old"] == 0
    assert found["points.old"] == 0
    # a project without retention keeps everything
    assert found["other-traces.old"] == found["other-observations.old"] == 40
    assert found["other-scores.old"] == 40
