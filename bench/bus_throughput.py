"""Bus throughput: Axonal's consumer and outbox relay against raw nats-py in the same run.

Starts its own nats-server and PostgreSQL, then measures:
  consume   raw nats-py fetch(100)+ack (reference) vs ``subscribe_events`` (decode, verdict,
            one handler call a message) and a ``BatchConsumer`` (one call a fetch)
  publish   raw JetStream publish with Nats-Msg-Id, 256 in flight (reference) vs the outbox
            relay (claim rows, publish, mark), including the transactional enqueue
Prints messages per second and the ratio to the reference. Run: ``make bench``.
"""

from __future__ import annotations

import asyncio
import time

import nats
from _servers import nats_and_postgres

from axonal_bus.batches import BatchConsumer
from axonal_bus.consumer import ConsumerSpec, subscribe_events
from axonal_bus.outbox import OutboxRelay, enqueue, event_headers
from axonal_bus.provision import provision
from axonal_bus.schema import BUS_MIGRATIONS
from axonal_bus.settings import BusSettings
from axonal_db import create_pool, migrate, transaction
from axonal_events import CATALOG, RunStatus, StreamKind, Subjects
from axonal_testing.bus import make_broker, running
from axonal_testing.factories import run_event

N = 10_000


def rate(n: int, seconds: float) -> float:
    return n / seconds if seconds else float("inf")


def row(name: str, value: float, reference: float) -> None:
    print(f"  {name:<44} {value:>10,.0f} msg/s   {value / reference:5.2f}x reference")


async def publish_all(js, subjects: Subjects, events) -> float:
    started = time.perf_counter()
    for i in range(0, len(events), 256):
        await asyncio.gather(
            *(
                js.publish(subjects.event(e.event_type), e.to_json(), headers=event_headers(e))
                for e in events[i : i + 256]
            )
        )
    return time.perf_counter() - started


async def consume_raw(js, subjects: Subjects) -> float:
    sub = await js.pull_subscribe(
        subjects.events(), durable="raw", stream=subjects.stream_name(StreamKind.EVENTS)
    )
    started = time.perf_counter()
    seen = 0
    while seen < N:
        for msg in await sub.fetch(100, timeout=5):
            await msg.ack()
            seen += 1
    return time.perf_counter() - started


async def consume_axonal(settings: BusSettings) -> float:
    done = asyncio.Event()
    seen = 0

    async def handler(_event) -> None:
        nonlocal seen
        seen += 1
        if seen == N:
            done.set()

    broker = make_broker(settings, "bench")
    subscribe_events(
        broker,
        settings.subjects,
        durable="axonal",
        event_types=["run.*"],
        handler=handler,
        batch_size=100,
    )
    started = time.perf_counter()
    async with running(broker):
        await asyncio.wait_for(done.wait(), 120)
    return time.perf_counter() - started


async def consume_batched(js, subjects: Subjects) -> float:
    done = asyncio.Event()
    seen = 0

    async def handler(batch) -> None:
        nonlocal seen
        seen += len(batch)
        if seen >= N:
            done.set()

    spec = ConsumerSpec(
        durable="batched",
        filter_subjects=[subjects.events("run")],
        decode=CATALOG.decode,
        batch_size=100,
    )
    consumer = BatchConsumer(spec, handler)
    started = time.perf_counter()
    await consumer.open(js, subjects)
    task = asyncio.create_task(consumer.run())
    await asyncio.wait_for(done.wait(), 120)
    finished = time.perf_counter()
    task.cancel()
    return finished - started


async def main() -> None:
    with nats_and_postgres() as (nats_url, database_url):
        await run(nats_url, database_url)


async def run(nats_url: str, database_url: str) -> None:
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    print(f"bus throughput, {N:,} run events (~450 B each)")

    subjects = Subjects("benchpub")
    await provision(js, subjects)
    events = [run_event(RunStatus.RUNNING) for _ in range(N)]
    raw_publish = rate(N, await publish_all(js, subjects, events))

    pool = await create_pool(database_url, schema="bench")
    await migrate(pool, schema="bench", sources=[BUS_MIGRATIONS])
    subjects = Subjects("benchoutbox")
    await provision(js, subjects)
    events = [run_event(RunStatus.RUNNING) for _ in range(N)]
    started = time.perf_counter()
    for i in range(0, N, 500):
        async with transaction(pool) as conn:
            for event in events[i : i + 500]:
                await enqueue(conn, subjects, event)
    enqueued = time.perf_counter()
    await OutboxRelay(pool, js, batch_size=256).drain()
    finished = time.perf_counter()
    await pool.close()

    print("publish")
    print(
        f"  {'raw JetStream publish, 256 in flight':<44} {raw_publish:>10,.0f} msg/s   (reference)"
    )
    row("outbox relay (claim, publish, mark)", rate(N, finished - enqueued), raw_publish)
    row("outbox enqueue + relay, end to end", rate(N, finished - started), raw_publish)

    settings = BusSettings(nats_url=nats_url, namespace="benchpub")
    raw_consume = rate(N, await consume_raw(js, settings.subjects))
    axonal_consume = rate(N, await consume_axonal(settings))
    batched_consume = rate(N, await consume_batched(js, settings.subjects))
    print("consume")
    print(f"  {'raw nats-py fetch(100) + ack':<44} {raw_consume:>10,.0f} msg/s   (reference)")
    row("subscribe_events (decode + verdict + ack)", axonal_consume, raw_consume)
    row("BatchConsumer (decode + batch verdict + ack)", batched_consume, raw_consume)
    await nc.close()


if __name__ == "__main__":
    asyncio.run(main())
