"""The tracking service killed (SIGKILL) mid-way through trace batches loses and repeats none."""

import signal
import uuid
from datetime import UTC, datetime, timedelta

from axonal_db import connect
from axonal_events import StreamKind
from axonal_events.traces import ObservationRecord, TraceBatch, TraceRecord
from axonal_testing.bus import drained
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for
from axonal_tracking.settings import TrackingSettings

PROJECT = "0190aaaa-bbbb-7ccc-8ddd-ffffffffffff"
BATCHES, TRACES_PER_BATCH, SPANS_PER_TRACE = 40, 50, 10  # 2,000 traces, 20,000 observations
T0 = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)


def trace_batch(index: int) -> bytes:
    traces, observations = [], []
    for t in range(TRACES_PER_BATCH):
        trace_id = uuid.uuid5(uuid.NAMESPACE_OID, f"{index}:{t}").hex
        at = T0 + timedelta(seconds=index)
        traces.append(TraceRecord(id=trace_id, event_time=at, name=f"request-{index}-{t}"))
        for s in range(SPANS_PER_TRACE):
            observations.append(
                ObservationRecord(
                    id=f"{index:04x}{t:04x}{s:08x}",
                    trace_id=trace_id,
                    event_time=at,
                    name=f"step-{s}",
                    start_time=at,
                    end_time=at + timedelta(milliseconds=5),
                    input={"text": "x" * 500},
                )
            )
    batch = TraceBatch(
        project_id=PROJECT,
        project="acme/llm",
        received_at=T0,
        traces=traces,
        observations=observations,
    )
    return batch.model_dump_json(exclude_none=True).encode()


async def test_killed_tracking_stores_every_span_once(
    service_settings, database_url, nats_client, tmp_path
):
    settings = service_settings(TrackingSettings)
    js, subjects = nats_client.jetstream(), settings.subjects
    conn = await connect(database_url)
    total_traces = BATCHES * TRACES_PER_BATCH
    total_spans = total_traces * SPANS_PER_TRACE

    async def count(sql: str) -> int:
        try:
            return int(await conn.fetchval(sql, PROJECT))
        except Exception:  # the schema appears once the service has migrated
            return 0

    spans = "SELECT count(*) FROM tracking.observations WHERE project_id = $1"
    with (tmp_path / "tracking.log").open("wb") as log:
        first = service_process("axonal_tracking", settings, log)
        try:
            for index in range(BATCHES):
                headers = {"Nats-Msg-Id": f"traces-{index}"}
                subject = subjects.ingest(f"traces.{PROJECT}")
                await js.publish(subject, trace_batch(index), headers=headers)
            await wait_for(lambda: count(spans), timeout=30, interval=0.01, message="started")
            first.send_signal(signal.SIGKILL)  # mid-stream: no drain, acks in flight lost
            first.wait(10)
            partial = await count(spans)
            second = service_process("axonal_tracking", settings, log)
            try:

                async def complete() -> bool:
                    return await count(spans) >= total_spans

                await wait_for(complete, timeout=120, message=f"{total_spans} observations")
                ingest = subjects.stream_name(StreamKind.INGEST)
                await wait_for(  # nothing left to redeliver: no late duplicate can come
                    lambda: drained(js, ingest, "tracking-traces"), message="all acknowledged"
                )
            finally:
                code = await stop_when_up(nats_client, subjects, "tracking", second)
                assert code == 0, "a clean stop exits 0"
        finally:
            if first.poll() is None:
                first.kill()
    stored_spans = await count(spans)
    distinct_spans = await count(
        "SELECT count(DISTINCT id) FROM tracking.observations WHERE project_id = $1"
    )
    stored_traces = await count("SELECT count(*) FROM tracking.traces WHERE project_id = $1")
    await conn.close()
    assert stored_spans == distinct_spans == total_spans
    assert stored_traces == total_traces
    assert partial < total_spans, "the kill should land mid-stream; raise BATCHES if fast"
