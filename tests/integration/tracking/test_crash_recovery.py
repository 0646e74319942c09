"""The tracking service killed (SIGKILL) mid-ingest and restarted stores every point once."""

import signal

from axonal_db import connect
from axonal_events import StreamKind
from axonal_testing.bus import drained
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for
from axonal_tracking.settings import TrackingSettings

from .conftest import batch, create_run, send

BATCHES, PER_BATCH = 60, 5000  # 300,000 points (the benchmark ingests a million)


async def test_killed_tracking_resumes_without_loss_or_duplicates(
    service_settings, database_url, nats_client, tmp_path
):
    settings = service_settings(TrackingSettings)
    js, subjects = nats_client.jetstream(), settings.subjects
    run_uuid = await create_run(js, subjects)
    total = BATCHES * PER_BATCH
    conn = await connect(database_url)

    async def stored() -> int:
        try:
            return await conn.fetchval(
                "SELECT count(*) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
            )
        except Exception:  # the schema appears once the service has migrated
            return 0

    with (tmp_path / "tracking.log").open("wb") as log:
        first = service_process("axonal_tracking", settings, log)
        try:
            for i in range(BATCHES):
                steps = range(i * PER_BATCH, (i + 1) * PER_BATCH)
                await send(js, subjects, run_uuid, batch(run_uuid, "loss", steps))
            await wait_for(stored, timeout=30, interval=0.01, message="ingestion started")
            first.send_signal(signal.SIGKILL)  # mid-stream: no drain, acks in flight lost
            first.wait(10)
            partial = await stored()
            second = service_process("axonal_tracking", settings, log)
            try:

                async def complete() -> bool:
                    return await stored() >= total

                await wait_for(complete, timeout=120, message=f"{total} points stored")
                # the batches the killed process took unacknowledged come back after ack_wait:
                # once the durable has nothing left to deliver, none can still add a row
                stream = subjects.stream_name(StreamKind.INGEST)
                await wait_for(
                    lambda: drained(js, stream, "tracking-metrics"),
                    timeout=90,
                    message="every batch acknowledged",
                )
            finally:
                code = await stop_when_up(nats_client, subjects, "tracking", second)
                assert code == 0, "a clean stop exits 0"
        finally:
            if first.poll() is None:
                first.kill()
    distinct = await conn.fetchval(
        "SELECT count(DISTINCT step) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
    )
    rows = await stored()
    await conn.close()
    assert rows == distinct == total
    assert partial < total, "the kill should land mid-stream; raise BATCHES if the machine is fast"
