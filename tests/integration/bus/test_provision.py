from nats.js.api import RetentionPolicy

from axonal_bus.provision import provision
from axonal_events import StreamKind


async def test_provisioning_is_idempotent(nats_client, subjects):
    js = nats_client.jetstream()
    first = await provision(js, subjects)
    assert {r.action for r in first} == {"created"}
    assert len(first) == len(StreamKind)
    second = await provision(js, subjects)
    assert {r.action for r in second} == {"unchanged"}
    events = await js.stream_info(subjects.stream_name(StreamKind.EVENTS))
    assert events.config.retention == RetentionPolicy.LIMITS
    assert events.config.duplicate_window == 120
    commands = await js.stream_info(subjects.stream_name(StreamKind.COMMANDS))
    assert commands.config.retention == RetentionPolicy.WORK_QUEUE
    for spec in subjects.streams():
        await js.delete_stream(spec.name)


async def test_drifted_stream_is_updated(nats_client, subjects):
    js = nats_client.jetstream()
    await provision(js, subjects)
    name = subjects.stream_name(StreamKind.DLQ)
    config = (await js.stream_info(name)).config
    config.max_age = 3600.0
    await js.update_stream(config=config)
    results = {r.stream: r.action for r in await provision(js, subjects)}
    assert results[name] == "updated"
    assert (await js.stream_info(name)).config.max_age == 30 * 24 * 3600
    for spec in subjects.streams():
        await js.delete_stream(spec.name)
