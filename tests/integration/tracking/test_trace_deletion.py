"""One trace deleted: it goes with its observations, scores and a session it alone named;
tracking confirms once; the project's other traces stay."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest
from asyncpg import Connection
from nats.aio.client import Client

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind, Subjects
from axonal_events.retention import DeleteTraceRequest
from axonal_events.rpcs import Tracking
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

PROJECT_ID = "0190aaaa-bbbb-7ccc-8ddd-000000000040"


async def test_a_deleted_trace_goes_with_its_observations_and_scores(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    at = datetime.now(UTC)
    batch = TraceBatch(
        project_id=PROJECT_ID,
        project="acme/llm",
        received_at=at,
        traces=[
            TraceRecord(id=t, event_time=at, timestamp=at, session_id=f"s-{t}")
            for t in ("gone", "kept")
        ],
        observations=[
            ObservationRecord(id=f"o-{t}-{n}", trace_id=t, event_time=at)
            for t in ("gone", "kept")
            for n in range(3)
        ],
        scores=[
            ScoreRecord(id=f"s-{t}", event_time=at, name="q", value=1.0, trace_id=t)
            for t in ("gone", "kept")
        ],
    )
    headers = {"Nats-Msg-Id": uuid.uuid4().hex}
    payload = batch.model_dump_json(exclude_none=True).encode()
    await js.publish(subjects.ingest(f"traces.{PROJECT_ID}"), payload, headers=headers)
    conn = await connect(database_url)
    try:
        await _wait_stored(conn)
        await _delete_and_check(nats_client, subjects, conn)
    finally:
        await conn.close()


async def _wait_stored(conn: Connection) -> None:
    """Both traces are stored with their scores (what the deletion must then tell apart)."""

    async def stored() -> bool:
        sql = "SELECT count(*) FROM tracking.scores WHERE project_id = $1"
        return await conn.fetchval(sql, PROJECT_ID) == 2

    await wait_for(stored, message="ingested")


async def _delete_and_check(nats_client: Client, subjects: Subjects, conn: Connection) -> None:
    js = nats_client.jetstream()

    call = lambda method, request: rpc.call(nats_client, subjects, method, request)  # noqa: E731
    request = DeleteTraceRequest(project_id=PROJECT_ID, project="acme/llm", trace_id="gone")
    accepted = await call(Tracking.delete_trace, request)
    assert (accepted.scope, accepted.target) == ("trace", "gone")

    async def confirmed():
        found = await read_stream(
            js, subjects.stream_name(StreamKind.EVENTS), subjects.event("deletion.completed")
        )
        return [json.loads(data)["data"] for _, data, _ in found] or None

    [done] = await wait_for(confirmed, message="tracking confirmed")
    assert (done["service"], done["request_id"], done["rows"]) == (
        "tracking",
        accepted.request_id,
        1 + 3 + 1 + 1,  # the trace, its observations, its score, its session
    )
    for table in ("traces", "observations", "scores", "sessions"):
        ids = await conn.fetch(f"SELECT id FROM tracking.{table} WHERE project_id = $1", PROJECT_ID)
        assert all("gone" not in r["id"] for r in ids), table
        assert any("kept" in r["id"] for r in ids), table

    with pytest.raises(RemoteError) as err:
        await call(Tracking.delete_trace, request)
    assert err.value.code is ErrorCode.NOT_FOUND
