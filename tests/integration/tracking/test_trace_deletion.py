"""One trace deleted: it goes with its observations, scores and a session it alone named;
tracking confirms once; the project's other traces stay."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.retention import DeleteTraceRequest
from axonal_events.rpcs import Tracking
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_testing.bus import drained, read_stream
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
    stream = subjects.stream_name(StreamKind.INGEST)
    await wait_for(lambda: drained(js, stream, "tracking-traces"), message="ingested")

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
    conn = await connect(database_url)
    try:
        for table in ("traces", "observations", "scores", "sessions"):
            ids = await conn.fetch(
                f"SELECT id FROM tracking.{table} WHERE project_id = $1",
                PROJECT_ID,
            )
            assert all("gone" not in r["id"] for r in ids), table
            assert any("kept" in r["id"] for r in ids), table
    finally:
        await conn.close()

    with pytest.raises(RemoteError) as err:
        await call(Tracking.delete_trace, request)
    assert err.value.code is ErrorCode.NOT_FOUND
