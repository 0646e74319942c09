"""A service killed mid-stream and restarted ends with exactly the data it was sent."""

import signal

from axonal_bus.outbox import event_headers
from axonal_db import connect
from axonal_events import RunStatus, StreamKind
from axonal_identity.settings import IdentitySettings
from axonal_testing.bus import drained
from axonal_testing.factories import run_event
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for

N = 600


async def test_killed_service_resumes_without_loss_or_duplicates(
    service_settings, bus_settings, database_url, nats_client, tmp_path
):
    settings = service_settings(IdentitySettings)
    js = nats_client.jetstream()
    events = [run_event(RunStatus.RUNNING) for _ in range(N)]
    conn = await connect(database_url)

    async def audited() -> int:
        try:
            return await conn.fetchval("SELECT count(*) FROM identity.audit_log")
        except Exception:  # the schema appears once the service has migrated
            return 0

    with (tmp_path / "identity.log").open("wb") as log:
        first = service_process("axonal_identity", settings, log)
        try:
            for event in events:
                await js.publish(
                    bus_settings.subjects.event(event.event_type),
                    event.to_json(),
                    headers=event_headers(event),
                )
            await wait_for(audited, timeout=30, message="auditing started")
            first.send_signal(signal.SIGKILL)  # mid-stream: no drain, no acks in flight
            first.wait(10)
            partial = await audited()
            second = service_process("axonal_identity", settings, log)
            try:

                async def complete() -> bool:
                    return await audited() >= N

                await wait_for(complete, timeout=60, message=f"{N} events audited")
                # what the killed process took unacknowledged comes back after ack_wait: once
                # the durable has nothing left to deliver, nothing can still add a row
                stream = bus_settings.subjects.stream_name(StreamKind.EVENTS)
                await wait_for(
                    lambda: drained(js, stream, "identity-audit"),
                    timeout=60,
                    message="every event acknowledged",
                )
            finally:
                code = await stop_when_up(nats_client, bus_settings.subjects, "identity", second)
                assert code == 0, "a clean stop exits 0"
        finally:
            if first.poll() is None:
                first.kill()
    rows = await conn.fetch("SELECT event_id FROM identity.audit_log")
    await conn.close()
    assert sorted(r["event_id"] for r in rows) == sorted(e.id for e in events)
    assert partial < N, "the kill should land mid-stream; raise N if the machine is fast"
