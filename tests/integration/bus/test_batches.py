"""Batched consumers: many messages per handler call, the same verdicts as one by one."""

import asyncio
import contextlib
import time

from axonal_bus.batches import BatchConsumer
from axonal_bus.consumer import ConsumerSpec
from axonal_bus.dlq import DLQ_HEADERS
from axonal_bus.errors import Permanent
from axonal_bus.outbox import event_headers
from axonal_bus.retry import RetryPolicy
from axonal_events import CATALOG, RunStatus, StreamKind
from axonal_testing.bus import drained, read_stream
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

FAST = RetryPolicy(max_deliver=3, base_delay=0.1, max_delay=0.5, jitter=0.0)


@contextlib.asynccontextmanager
async def consuming(js, subjects, durable, handler, policy=FAST, ignored=frozenset()):
    spec = ConsumerSpec(
        durable=durable,
        filter_subjects=[subjects.events("run")],
        decode=CATALOG.decode,
        policy=policy,
        batch_size=64,
        ack_wait=5.0,
    )
    consumer = BatchConsumer(spec, handler, ignored)
    await consumer.open(js, subjects, inbox_prefix=subjects.inbox_prefix("tests"))
    task = asyncio.create_task(consumer.run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def publish(js, subjects, events):
    for event in events:
        await js.publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )


async def dead_letters(js, subjects):
    return await read_stream(js, subjects.stream_name(StreamKind.DLQ))


async def test_a_batch_handler_gets_many_events_in_one_call_and_all_are_acknowledged(
    bus_settings, nats_client
):
    js, subjects = nats_client.jetstream(), bus_settings.subjects
    events = [run_event(RunStatus.SUCCEEDED) for _ in range(200)]
    await publish(js, subjects, events)  # waiting before the consumer starts
    calls: list[list[str]] = []

    async def handle(batch):
        calls.append([event.id for event in batch])

    stream = subjects.stream_name(StreamKind.EVENTS)
    async with consuming(js, subjects, "batched", handle):
        await wait_for(lambda: sum(map(len, calls)) >= 200, message="every event handled")
        await wait_for(lambda: drained(js, stream, "batched"), message="every event acked")
    assert sorted(i for call in calls for i in call) == sorted(e.id for e in events)
    assert max(map(len, calls)) <= 64  # never more than a fetch
    assert len(calls) < 50  # many events per call


async def test_an_idle_consumer_hands_over_one_event_without_waiting_for_a_full_batch(
    bus_settings, nats_client
):
    js, subjects = nats_client.jetstream(), bus_settings.subjects
    handled: list[float] = []

    async def handle(batch):
        handled.extend(time.monotonic() for _ in batch)

    stream = subjects.stream_name(StreamKind.EVENTS)

    async def fetch_waiting() -> bool:
        return (await js.consumer_info(stream, "idle")).num_waiting > 0

    async with consuming(js, subjects, "idle", handle):
        await wait_for(fetch_waiting, message="the consumer's fetch waits on an empty stream")
        for expected in (1, 2):
            sent = time.monotonic()
            await publish(js, subjects, [run_event(RunStatus.SUCCEEDED)])
            await wait_for(lambda n=expected: len(handled) >= n, message="the event handled")
            # one event of a 64-event batch: handed over at once, not after the fetch's 5 s
            assert handled[-1] - sent < 1.0


async def test_messages_on_ignored_subjects_are_acknowledged_unread(bus_settings, nats_client):
    js, subjects = nats_client.jetstream(), bus_settings.subjects
    wanted = [run_event(RunStatus.SUCCEEDED) for _ in range(3)]
    await publish(js, subjects, wanted[:1])
    for _ in range(50):  # not even decoded: bytes that would be dead-lettered otherwise
        await js.publish(subjects.event("run.running"), b"\x00not json")
    await publish(js, subjects, wanted[1:])
    handled: list[str] = []

    async def handle(batch):
        handled.extend(event.id for event in batch)

    stream = subjects.stream_name(StreamKind.EVENTS)
    ignored = frozenset({subjects.event("run.running")})
    async with consuming(js, subjects, "ignoring", handle, ignored=ignored):
        await wait_for(lambda: drained(js, stream, "ignoring"), message="every message acked")
    assert handled == [e.id for e in wanted]
    assert await dead_letters(js, subjects) == []


async def test_an_undecodable_message_is_dead_lettered_alone_and_the_rest_handled(
    bus_settings, nats_client
):
    js, subjects = nats_client.jetstream(), bus_settings.subjects
    good = [run_event(RunStatus.RUNNING) for _ in range(3)]
    await publish(js, subjects, good[:1])
    await js.publish(subjects.event("run.running"), b"\x00not json")
    await publish(js, subjects, good[1:])
    handled: list[str] = []

    async def handle(batch):
        handled.extend(event.id for event in batch)

    async with consuming(js, subjects, "mixed", handle):
        dead = await wait_for(lambda: dead_letters(js, subjects), message="dead letter")
        await wait_for(lambda: len(handled) == 3, message="the good ones")
    [(subject, data, headers)] = dead
    assert (subject, data) == (subjects.dlq("mixed"), b"\x00not json")
    assert "not JSON" in headers[DLQ_HEADERS.REASON]
    assert sorted(handled) == sorted(e.id for e in good)


async def test_a_failed_batch_is_retried_whole_and_a_permanent_failure_dead_letters_it(
    bus_settings, nats_client
):
    js, subjects = nats_client.jetstream(), bus_settings.subjects
    flaky_events = [run_event(RunStatus.FAILED) for _ in range(5)]
    attempts: list[list[str]] = []

    async def flaky(batch):
        attempts.append([event.id for event in batch])
        if len(attempts) == 1:
            raise ConnectionError("database restarting")

    stream = subjects.stream_name(StreamKind.EVENTS)
    await publish(js, subjects, flaky_events)
    async with consuming(js, subjects, "flaky", flaky):
        await wait_for(lambda: sum(map(len, attempts)) >= 10, message="the batch again")
        await wait_for(lambda: drained(js, stream, "flaky"), message="acked after the retry")
    assert sorted(attempts[0]) == sorted(e.id for e in flaky_events)
    assert sorted(i for call in attempts[1:] for i in call) == sorted(attempts[0])
    assert await dead_letters(js, subjects) == []

    async def refuses(batch):
        raise Permanent("no such project")

    async with consuming(js, subjects, "refusing", refuses):

        async def five_dead():
            found = await dead_letters(js, subjects)
            return found if len(found) == 5 else None

        dead = await wait_for(five_dead, message="the batch dead-lettered")
    assert {h[DLQ_HEADERS.REASON] for _, _, h in dead} == {"no such project"}
