"""Attempts are announced on the bus in the transaction that records them: failures,
recoveries and notifications through connections, never an announcement's own delivery."""

import asyncio

from axonal_db import connect
from axonal_events import CATALOG, NotificationDelivered, NotificationFailed, RunStatus
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

from .conftest import deliveries, publish
from .test_deliveries import subscribe


async def _listen(nc, settings):
    """Announcements of notifications, as they reach the bus."""
    heard: asyncio.Queue = asyncio.Queue()

    async def on_message(msg):
        await heard.put(CATALOG.decode(msg.data))

    await nc.subscribe(settings.subjects.event("notification.*"), cb=on_message)
    return heard


async def _announced(database_url, project_name) -> int:
    """How many announcements of ``project_name`` are in the outbox (committed ones only)."""
    conn = await connect(database_url)
    try:
        return await conn.fetchval(
            "SELECT count(*) FROM notifications.outbox "
            "WHERE convert_from(payload, 'UTF8')::jsonb ->> 'project' = $1",
            project_name,
        )
    finally:
        await conn.close()


async def test_failures_are_announced_until_the_last_and_their_deliveries_are_not(
    start_notifications, nats_client, receiver, database_url
):
    settings = await start_notifications(retry_schedule=[0.05])
    heard = await _listen(nats_client, settings)
    receiver.status = 503
    hook = await subscribe(nats_client, settings, receiver.url, ["run.*", "notification.*"])
    event = run_event(RunStatus.FAILED, project=hook.project)
    await publish(nats_client, settings, event)

    first = await asyncio.wait_for(heard.get(), 10)
    last = await asyncio.wait_for(heard.get(), 10)
    assert (first.project, first.correlationid) == (hook.project, event.correlationid)
    assert isinstance(first.data, NotificationFailed)
    assert isinstance(last.data, NotificationFailed)
    assert [(a.data.attempts, a.data.final, a.data.status_code) for a in (first, last)] == [
        (1, False, 503),
        (2, True, 503),
    ]
    assert (first.data.notification_id, first.data.source_event_id) == (
        f"{hook.id}:{event.id}",
        event.id,
    )
    assert first.data.channel == "webhook"
    assert first.data.error == "answered 503"
    assert first.data.target == receiver.url.replace("/hook", "/****")  # paths carry tokens

    async def all_dead():
        found = await deliveries(nats_client, settings, hook)
        return len(found) == 3 and all(d.status == "dead" for d in found)

    # the run event and both announcements, each failing twice: only the run event's
    # attempts were announced (the announcements' are recorded, and add nothing)
    await wait_for(all_dead, message="three dead deliveries")
    assert await _announced(database_url, hook.project) == 2


async def test_a_recovery_is_announced_and_a_first_time_success_is_not(
    notifications, nats_client, receiver, database_url
):
    heard = await _listen(nats_client, notifications)
    receiver.first = [503]  # the retry may come before the failure is heard
    hook = await subscribe(nats_client, notifications, receiver.url, ["run.succeeded"])
    event = run_event(RunStatus.SUCCEEDED, project=hook.project)
    await publish(nats_client, notifications, event)
    failures = 0  # the 503, and any attempt a loaded machine let time out (0.5 s)
    while isinstance(
        (heard_now := await asyncio.wait_for(heard.get(), 10)).data, NotificationFailed
    ):
        assert heard_now.data.source_event_id == event.id
        failures += 1
    assert failures >= 1
    recovered = heard_now
    assert recovered.type == "axonal.notification.delivered"
    data = recovered.data
    assert isinstance(data, NotificationDelivered)
    assert (data.source_event_id, data.attempts, data.status_code) == (event.id, failures + 1, 200)
    assert data.latency_ms > 0

    second = run_event(RunStatus.SUCCEEDED, project=hook.project)
    await publish(nats_client, notifications, second)

    async def both_delivered():
        found = await deliveries(nats_client, notifications, hook)
        return len(found) == 2 and all(d.status == "delivered" for d in found)

    await wait_for(both_delivered, message="both events delivered")
    announced = await _announced(database_url, hook.project)
    assert announced == failures + 1  # the failures and the recovery, not the second success
