"""Transactional outbox and inbox on a real PostgreSQL and a real JetStream."""

import asyncio
import uuid
from datetime import timedelta

import pytest
import pytest_asyncio

from axonal_bus.consumer import subscribe_events
from axonal_bus.housekeeping import prune_inbox, prune_outbox
from axonal_bus.inbox import process_once
from axonal_bus.outbox import OutboxRelay, PendingEvents, enqueue
from axonal_bus.schema import BUS_MIGRATIONS
from axonal_db import create_pool, migrate, transaction
from axonal_events import RunStatus, StreamKind
from axonal_testing.bus import drained, make_broker, running, stream_count
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for


@pytest_asyncio.fixture(loop_scope="session")
async def pool(database_url):
    schema = f"svc_{uuid.uuid4().hex[:8]}"
    pool = await create_pool(database_url, schema=schema)
    await migrate(pool, schema=schema, sources=[BUS_MIGRATIONS])
    await pool.execute("CREATE TABLE effects (run_uuid text, event_id text)")
    try:
        yield pool
    finally:
        await pool.close()


async def enqueue_events(pool, subjects, n):
    events = [run_event(RunStatus.SUCCEEDED) for _ in range(n)]
    async with transaction(pool) as conn:
        for event in events:
            await enqueue(conn, subjects, event)
    return events


async def pending(pool):
    return await pool.fetchval("SELECT count(*) FROM outbox WHERE published_at IS NULL")


async def test_rolled_back_transaction_publishes_nothing(pool, bus_settings, nats_client):
    subjects = bus_settings.subjects
    js = nats_client.jetstream()

    async def failing_use_case():
        async with transaction(pool) as conn:
            await enqueue(conn, subjects, run_event())
            raise RuntimeError("use case failed")

    with pytest.raises(RuntimeError, match="use case failed"):
        await failing_use_case()
    assert await pool.fetchval("SELECT count(*) FROM outbox") == 0
    assert await OutboxRelay(pool, js).drain() == 0
    assert await stream_count(js, subjects.stream_name(StreamKind.EVENTS)) == 0


async def test_relay_killed_between_publish_and_mark_loses_and_duplicates_nothing(
    pool, bus_settings, nats_client, monkeypatch
):
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    events = await enqueue_events(pool, subjects, 20)

    async def killed(*_args):
        raise ConnectionResetError("relay killed before marking")

    crashing = OutboxRelay(pool, js)
    monkeypatch.setattr(crashing, "_mark_published", killed)
    with pytest.raises(ConnectionResetError):
        await crashing.relay_once()
    stream = subjects.stream_name(StreamKind.EVENTS)
    assert await stream_count(js, stream) == 20  # published ...
    assert await pending(pool) == 20  # ... but not marked

    assert await OutboxRelay(pool, js).drain() == 20  # the restarted relay publishes again
    assert await pending(pool) == 0
    assert await stream_count(js, stream) == 20  # JetStream dropped the duplicates

    # Downstream: an inbox-keeping consumer whose first attempt at each event commits its
    # effect and then "crashes" before the ack, so every event is delivered twice.
    first_attempts: set[str] = set()

    async def on_event(event):
        async def effect(conn):
            await conn.execute("INSERT INTO effects VALUES ($1, $2)", event.data.run_uuid, event.id)

        await process_once(pool, "billing", event.id, effect)
        if event.id not in first_attempts:
            first_attempts.add(event.id)
            raise ConnectionError("crashed before ack")

    broker = make_broker(bus_settings)
    subscribe_events(broker, subjects, durable="billing", event_types=["run.*"], handler=on_event)
    async with running(broker):
        await wait_for(
            lambda: pool.fetchval("SELECT count(*) = 20 FROM inbox"), message="all processed"
        )
        await wait_for(lambda: len(first_attempts) == 20, message="first attempts")
        # the redeliveries arrive, are skipped by the inbox and acknowledged
        await wait_for(lambda: drained(js, stream, "billing"), message="all acknowledged")
    rows = await pool.fetch("SELECT event_id, count(*) AS n FROM effects GROUP BY event_id")
    assert {r["event_id"] for r in rows} == {e.id for e in events}
    assert {r["n"] for r in rows} == {1}


async def test_relay_is_woken_by_notify_at_commit(pool, bus_settings, nats_client):
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    relay = OutboxRelay(pool, js, poll_interval=120)  # polling alone would take minutes
    task = asyncio.create_task(relay.run())
    try:
        await asyncio.wait_for(relay.listening.wait(), 10)
        await enqueue_events(pool, subjects, 1)
        stream = subjects.stream_name(StreamKind.EVENTS)
        await wait_for(lambda: stream_count(js, stream), timeout=5, message="relayed")

        async def marked():
            return await pending(pool) == 0

        await wait_for(marked, timeout=5, message="marked")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


async def test_relay_listens_again_when_its_connection_is_cut(pool, bus_settings, nats_client):
    """A restarted PostgreSQL ends the listening connection: the relay opens a new one and
    commits wake it again (polling alone would take minutes here)."""
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    relay = OutboxRelay(pool, js, poll_interval=120)
    task = asyncio.create_task(relay.run())
    try:
        await asyncio.wait_for(relay.listening.wait(), 10)
        listeners = await pool.fetch(
            "SELECT pid FROM pg_stat_activity "
            "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
        )
        assert len(listeners) == 1
        await pool.execute("SELECT pg_terminate_backend($1)", listeners[0]["pid"])

        async def listening_anew() -> bool:
            found = await pool.fetch("SELECT pid FROM pg_stat_activity WHERE query LIKE 'LISTEN%'")
            return relay.listening.is_set() and [r["pid"] for r in found] not in ([], listeners)

        await wait_for(listening_anew, timeout=10, message="a new listening connection")
        await enqueue_events(pool, subjects, 1)
        stream = subjects.stream_name(StreamKind.EVENTS)
        await wait_for(lambda: stream_count(js, stream), timeout=5, message="relayed")
    finally:
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)


class CountingJetStream:
    def __init__(self, js):
        self.js = js
        self.calls = 0

    async def publish(self, *args, **kwargs):
        self.calls += 1
        await asyncio.sleep(0.002)  # let the other relay run in between, even on a busy machine
        return await self.js.publish(*args, **kwargs)


async def write_directly(pool, subjects, n):
    """``n`` events written with a direct flush and committed; the pending set to publish."""
    events = PendingEvents(subjects)
    for _ in range(n):
        events.add(run_event(RunStatus.SUCCEEDED))
    async with transaction(pool) as conn:
        await events.flush(conn, direct=True)
    return events


async def test_a_writer_publishes_its_committed_rows_and_marks_them(
    pool, bus_settings, nats_client
):
    subjects, js = bus_settings.subjects, nats_client.jetstream()
    relay = OutboxRelay(pool, js)
    events = await write_directly(pool, subjects, 3)
    assert len(events.written) == 3
    await relay.publish_now(events.written)
    await relay.marked()  # off the writer's path
    assert await pending(pool) == 0
    assert await stream_count(js, subjects.stream_name(StreamKind.EVENTS)) == 3
    assert await relay.drain() == 0  # nothing left for the relay


async def test_rows_a_writer_never_published_are_published_by_the_relay(
    pool, bus_settings, nats_client
):
    subjects, js = bus_settings.subjects, nats_client.jetstream()
    await write_directly(pool, subjects, 4)  # the writer "died" after its commit
    assert await pending(pool) == 4
    assert await OutboxRelay(pool, js).drain() == 4
    assert await stream_count(js, subjects.stream_name(StreamKind.EVENTS)) == 4


async def test_a_failed_direct_publish_leaves_the_rows_to_the_relay(pool, bus_settings):
    class Down:
        async def publish(self, *args, **kwargs):
            raise ConnectionError("nats is down")

    events = await write_directly(pool, bus_settings.subjects, 2)
    await OutboxRelay(pool, Down()).publish_now(events.written)  # logs, does not raise
    assert await pending(pool) == 2


async def test_two_relays_share_the_outbox_without_publishing_twice(
    pool, bus_settings, nats_client
):
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    await enqueue_events(pool, subjects, 300)
    a, b = CountingJetStream(js), CountingJetStream(js)
    done = await asyncio.gather(
        OutboxRelay(pool, a, batch_size=20).drain(), OutboxRelay(pool, b, batch_size=20).drain()
    )
    assert sum(done) == 300
    assert a.calls + b.calls == 300, "a row was published by both relays"
    assert a.calls > 0
    assert b.calls > 0
    assert await stream_count(js, subjects.stream_name(StreamKind.EVENTS)) == 300


async def test_housekeeping_prunes_only_old_published_and_processed_rows(pool, bus_settings):
    subjects = bus_settings.subjects
    await enqueue_events(pool, subjects, 3)
    await pool.execute(
        "UPDATE outbox SET published_at = now() - interval '2 days' "
        "WHERE id = (SELECT min(id) FROM outbox)"
    )
    await pool.execute(
        "UPDATE outbox SET published_at = now() WHERE id = (SELECT max(id) FROM outbox)"
    )
    await pool.execute(
        "INSERT INTO inbox (consumer, event_id, processed_at) VALUES "
        "('c', 'old', now() - interval '40 days'), ('c', 'new', now())"
    )
    assert await prune_outbox(pool, timedelta(days=1)) == 1
    assert await prune_inbox(pool, timedelta(days=35)) == 1
    assert await pool.fetchval("SELECT count(*) FROM outbox") == 2  # one pending, one fresh
    assert await pool.fetchval("SELECT array_agg(event_id) FROM inbox") == ["new"]
