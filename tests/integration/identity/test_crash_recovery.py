"""A service killed mid-stream and restarted ends with exactly the data it was sent."""

import asyncio
import signal

from axonal_bus.outbox import event_headers
from axonal_db import connect
from axonal_events import RunStatus, StreamKind
from axonal_identity.settings import IdentitySettings
from axonal_testing.bus import drained
from axonal_testing.factories import run_event
from axonal_testing.services import service_process, stop_when_up
from axonal_testing.waiting import wait_for

TAIL = 200  # events published after the kill, so the restart has work the first never saw


async def test_killed_service_resumes_without_loss_or_duplicates(
    service_settings, bus_settings, database_url, nats_client, tmp_path
):
    settings = service_settings(IdentitySettings)
    js = nats_client.jetstream()
    events = []
    killed = asyncio.Event()

    async def publish() -> None:
        event = run_event(RunStatus.RUNNING)
        events.append(event)
        await js.publish(
            bus_settings.subjects.event(event.event_type),
            event.to_json(),
            headers=event_headers(event),
        )

    async def publish_until_killed() -> None:
        # a steady stream, so the kill lands while the service is consuming however fast it is
        while not killed.is_set():
            await publish()
            await asyncio.sleep(0.002)

    conn = await connect(database_url)

    async def audited() -> int:
        try:
            return await conn.fetchval("SELECT count(*) FROM identity.audit_log")
        except Exception:  # the schema appears once the service has migrated
            return 0

    with (tmp_path / "identity.log").open("wb") as log:
        first = service_process("axonal_identity", settings, log)
        try:
            publisher = asyncio.create_task(publish_until_killed())
            await wait_for(audited, timeout=30, message="auditing started")
            first.send_signal(signal.SIGKILL)  # mid-stream: no drain, no acks in flight
            first.wait(10)
            killed.set()
            await publisher
            partial = await audited()
            for _ in range(TAIL):
                await publish()
            second = service_process("axonal_identity", settings, log)
            try:

                async def complete() -> bool:
                    return await audited() >= len(events)

                await wait_for(complete, timeout=60, message="every event audited")
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
    assert 0 < partial <= len(events) - TAIL, "the kill landed mid-stream"
