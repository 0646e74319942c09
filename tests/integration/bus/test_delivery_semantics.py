"""Work-queue sharing, fan-out and publish de-duplication on a real JetStream."""

import asyncio
from collections import Counter

from axonal_bus.consumer import subscribe_events
from axonal_bus.outbox import event_headers
from axonal_events import RunStatus, StreamKind
from axonal_testing.bus import drained, make_broker, running, stream_count
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for


async def publish(js, subjects, event):
    return await js.publish(
        subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
    )


async def test_replicas_share_a_durable_and_each_message_is_handled_once(bus_settings, nats_client):
    subjects = bus_settings.subjects
    handled: list[tuple[str, str]] = []
    brokers = []
    for replica in ("a", "b"):
        broker = make_broker(bus_settings, f"svc-{replica}")

        async def on_event(event, replica=replica):
            handled.append((replica, event.id))
            await asyncio.sleep(0.005)

        subscribe_events(
            broker,
            subjects,
            durable="workers",
            event_types=["run.*"],
            handler=on_event,
            batch_size=1,
        )
        brokers.append(broker)
    js = nats_client.jetstream()
    async with running(*brokers):
        sent = [run_event(RunStatus.RUNNING) for _ in range(40)]
        for event in sent:
            await publish(js, subjects, event)
        await wait_for(lambda: len(handled) >= 40, message="40 events handled")
        # once every delivery is acknowledged and none is left, no second one can come
        stream = subjects.stream_name(StreamKind.EVENTS)
        await wait_for(lambda: drained(js, stream, "workers"), message="all acknowledged")
    ids = Counter(event_id for _, event_id in handled)
    assert set(ids) == {e.id for e in sent}
    assert max(ids.values()) == 1, "an event was handled twice"
    per_replica = Counter(replica for replica, _ in handled)
    assert per_replica["a"] > 0, per_replica
    assert per_replica["b"] > 0, per_replica


async def test_workers_handle_messages_side_by_side_and_each_once(bus_settings, nats_client):
    subjects = bus_settings.subjects
    in_flight, most, handled = 0, 0, Counter()
    broker = make_broker(bus_settings)

    async def on_event(event):
        nonlocal in_flight, most
        in_flight += 1
        most = max(most, in_flight)
        await asyncio.sleep(0.02)  # a database's answer, awaited
        in_flight -= 1
        handled[event.id] += 1

    subscribe_events(
        broker, subjects, durable="pair", event_types=["run.*"], handler=on_event, workers=2
    )
    js = nats_client.jetstream()
    sent = [run_event(RunStatus.RUNNING) for _ in range(20)]
    async with running(broker):
        for event in sent:
            await publish(js, subjects, event)
        stream = subjects.stream_name(StreamKind.EVENTS)
        await wait_for(lambda: drained(js, stream, "pair"), message="all acknowledged")
    assert set(handled) == {e.id for e in sent}
    assert max(handled.values()) == 1, "an event was handled twice"
    assert most == 2, f"{most} handled at once, not 2"


async def test_three_durables_each_get_every_event(bus_settings, nats_client):
    subjects = bus_settings.subjects
    got: dict[str, list[str]] = {"hooks": [], "alerts": [], "dag-steps": []}
    broker = make_broker(bus_settings)
    for durable, seen in got.items():

        async def on_event(event, seen=seen):
            seen.append(event.id)

        subscribe_events(
            broker,
            subjects,
            durable=durable,
            event_types=["run.done", "run.succeeded"],
            handler=on_event,
        )
    js = nats_client.jetstream()
    sent = [run_event(RunStatus.SUCCEEDED) for _ in range(10)]
    async with running(broker):
        for event in sent:
            await publish(js, subjects, event)
        await wait_for(lambda: all(len(v) == 10 for v in got.values()), message="fan-out")
    for seen in got.values():
        assert sorted(seen) == sorted(e.id for e in sent)


async def test_republished_event_with_same_id_is_stored_once(bus_settings, nats_client):
    subjects = bus_settings.subjects
    js = nats_client.jetstream()
    event = run_event(RunStatus.QUEUED)
    acks = [await publish(js, subjects, event) for _ in range(3)]
    assert [a.seq for a in acks] == [acks[0].seq] * 3
    assert [bool(a.duplicate) for a in acks] == [False, True, True]
    assert await stream_count(js, subjects.stream_name(StreamKind.EVENTS)) == 1
