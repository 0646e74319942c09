"""Retries with growing delays, dead letters with reasons, poison messages don't block."""

import itertools
import json
import time

import asyncpg
import pytest
from nats.js.api import ConsumerConfig

from axonal_bus.consumer import subscribe_events
from axonal_bus.dlq import DLQ_HEADERS
from axonal_bus.dlq_relay import register_dlq_relay
from axonal_bus.errors import Permanent, Retryable
from axonal_bus.outbox import event_headers
from axonal_bus.provision import provision
from axonal_bus.retry import RetryPolicy
from axonal_events import RunStatus, StreamKind
from axonal_stack.ports import free_port
from axonal_testing.bus import make_broker, read_stream, running, stream_count
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for

FAST = RetryPolicy(max_deliver=4, base_delay=0.2, max_delay=2.0, jitter=0.0)


async def dead_letters(js, subjects):
    return await read_stream(js, subjects.stream_name(StreamKind.DLQ))


async def test_retryable_error_is_retried_with_growing_delay(bus_settings, nats_client):
    subjects = bus_settings.subjects
    attempts: list[float] = []

    async def flaky(event):
        attempts.append(time.monotonic())
        if len(attempts) < 3:
            raise Retryable("database busy")

    broker = make_broker(bus_settings)
    subscribe_events(
        broker, subjects, durable="flaky", event_types=["run.*"], handler=flaky, policy=FAST
    )
    event = run_event(RunStatus.RUNNING)
    async with running(broker):
        await nats_client.jetstream().publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )
        await wait_for(lambda: len(attempts) == 3, message="third attempt")
    gaps = [b - a for a, b in itertools.pairwise(attempts)]
    assert gaps[0] == pytest.approx(0.2, abs=0.15)
    assert gaps[1] == pytest.approx(0.4, abs=0.15)
    assert gaps[1] > gaps[0]
    assert await dead_letters(nats_client.jetstream(), subjects) == []


async def test_exhausted_retries_end_in_the_dlq_with_reason(bus_settings, nats_client):
    subjects = bus_settings.subjects
    attempts = []

    async def always_fails(event):
        attempts.append(event.id)
        raise ConnectionError("webhook endpoint refused")

    broker = make_broker(bus_settings)
    subscribe_events(
        broker,
        subjects,
        durable="doomed",
        event_types=["run.*"],
        handler=always_fails,
        policy=FAST,
    )
    js = nats_client.jetstream()
    event = run_event(RunStatus.FAILED)
    async with running(broker):
        await js.publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )
        dead = await wait_for(lambda: dead_letters(js, subjects), message="dead letter")
    assert len(attempts) == FAST.max_deliver
    subject, data, headers = dead[0]
    assert subject == subjects.dlq("doomed")
    assert json.loads(data)["id"] == event.id  # the original body, untouched
    assert "webhook endpoint refused" in headers[DLQ_HEADERS.REASON]
    assert headers[DLQ_HEADERS.DELIVERIES] == str(FAST.max_deliver)
    assert headers[DLQ_HEADERS.ERROR] == "ConnectionError"
    assert headers[DLQ_HEADERS.SUBJECT] == subjects.event("run.failed")
    assert headers[DLQ_HEADERS.STREAM] == subjects.stream_name(StreamKind.EVENTS)
    assert headers[DLQ_HEADERS.MSG_ID] == event.id


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (b"\x00not json", "not JSON"),
        (b'{"specversion": "1.0"}', "CloudEvents"),
        ("wrong-schema", "status"),
        ("unknown-version", "schema version 9"),
    ],
)
async def test_malformed_message_goes_to_dlq_at_once_and_next_is_processed(
    bus_settings, nats_client, body, reason
):
    subjects = bus_settings.subjects
    good = run_event(RunStatus.SUCCEEDED)
    raw = good.to_json()
    if body == "wrong-schema":
        body = raw.replace(b'"status":"succeeded"', b'"status":"bogus"')
    elif body == "unknown-version":
        body = raw.replace(b":v1", b":v9")
    processed = []

    async def handler(event):
        processed.append(event.id)

    broker = make_broker(bus_settings)
    subscribe_events(
        broker,
        subjects,
        durable="strict",
        event_types=["run.*"],
        handler=handler,
        policy=FAST,
        batch_size=1,
    )
    js = nats_client.jetstream()
    async with running(broker):
        await js.publish(subjects.event("run.succeeded"), body, headers={"Nats-Msg-Id": "poison"})
        await js.publish(subjects.event("run.succeeded"), raw, headers=event_headers(good))
        await wait_for(lambda: processed, message="the good message")
        dead = await wait_for(lambda: dead_letters(js, subjects), message="dead letter")
    assert processed == [good.id]
    assert len(dead) == 1
    _, data, headers = dead[0]
    assert data == body
    assert reason in headers[DLQ_HEADERS.REASON]
    assert headers[DLQ_HEADERS.DELIVERIES] == "1"


async def test_permanent_error_is_dead_lettered_without_retry(bus_settings, nats_client):
    subjects = bus_settings.subjects
    attempts = []

    async def refuses(event):
        attempts.append(event.id)
        raise Permanent("run belongs to a deleted project")

    broker = make_broker(bus_settings)
    subscribe_events(
        broker, subjects, durable="picky", event_types=["run.*"], handler=refuses, policy=FAST
    )
    js = nats_client.jetstream()
    event = run_event()
    async with running(broker):
        await js.publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )
        dead = await wait_for(lambda: dead_letters(js, subjects), message="dead letter")
    assert attempts == [event.id]
    assert dead[0][2][DLQ_HEADERS.REASON] == "run belongs to a deleted project"


async def test_unacknowledged_message_reaches_dlq_through_the_advisory_relay(
    bus_settings, nats_client
):
    """A consumer that dies on every delivery never decides; the advisory relay does."""
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    events_stream = subjects.stream_name(StreamKind.EVENTS)
    event = run_event(RunStatus.STARTING)
    await js.publish(
        subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
    )
    crashy = await js.pull_subscribe(
        subjects.events(),
        durable="crashy",
        stream=events_stream,
        config=ConsumerConfig(max_deliver=2, ack_wait=0.3),
    )
    for _ in range(2):  # fetch and "crash" (never ack) twice
        await crashy.fetch(1, timeout=3)
    # The server notices the exhausted message on its next delivery attempt.
    with pytest.raises(TimeoutError):
        await crashy.fetch(1, timeout=1)
    advisories = subjects.stream_name(StreamKind.ADVISORIES)
    await wait_for(lambda: stream_count(js, advisories), message="advisory captured")
    relay = make_broker(bus_settings, "relay")
    register_dlq_relay(relay, subjects)
    async with running(relay):
        dead = await wait_for(lambda: dead_letters(js, subjects), timeout=15, message="relayed")
    subject, data, headers = dead[0]
    assert subject == subjects.dlq("crashy")
    assert json.loads(data)["id"] == event.id
    assert headers[DLQ_HEADERS.DELIVERIES] == "2"
    assert "not acknowledged after 2 deliveries" in headers[DLQ_HEADERS.REASON]
    assert headers[DLQ_HEADERS.ERROR] == "MaxDeliveries"


async def test_message_is_kept_while_the_dlq_is_unavailable(bus_settings, nats_client):
    """Dead-lettering that fails must not drop the message: it is retried later."""
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    dlq = subjects.stream_name(StreamKind.DLQ)
    await js.delete_stream(dlq)
    attempts = []

    async def refuses(event):
        attempts.append(event.id)
        raise Permanent("cannot be processed")

    broker = make_broker(bus_settings)
    subscribe_events(
        broker, subjects, durable="patient", event_types=["run.*"], handler=refuses, policy=FAST
    )
    event = run_event()
    async with running(broker):
        await js.publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )
        await wait_for(lambda: len(attempts) >= 2, message="retried while the DLQ is down")
        await provision(js, subjects)  # the DLQ is back
        dead = await wait_for(lambda: dead_letters(js, subjects), message="dead letter")
    assert json.loads(dead[0][1])["id"] == event.id


async def test_a_database_outage_is_waited_out_without_spending_deliveries(
    bus_settings, nats_client
):
    """While PostgreSQL refuses connections the message is kept (in progress), however long
    that takes; once it is back the message is handled on its first delivery."""
    subjects = bus_settings.subjects
    outage_over = time.monotonic() + 3 * FAST.max_deliver * FAST.base_delay  # > the policy
    handled: list[int] = []
    closed_port = f"postgresql://postgres@127.0.0.1:{free_port()}/postgres"

    async def needs_the_database(event):
        if time.monotonic() < outage_over:
            await asyncpg.connect(closed_port, timeout=1)  # refused: the database is down
        handled.append(1)

    broker = make_broker(bus_settings)
    subscribe_events(
        broker,
        subjects,
        durable="patient",
        event_types=["run.*"],
        handler=needs_the_database,
        policy=FAST,
    )
    js = nats_client.jetstream()
    event = run_event(RunStatus.RUNNING)
    async with running(broker):
        await js.publish(
            subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
        )
        await wait_for(lambda: handled, timeout=30, message="handled once the database is back")
        info = await js.consumer_info(subjects.stream_name(StreamKind.EVENTS), "patient")
    assert info.num_redelivered == 0
    assert await dead_letters(js, subjects) == []
