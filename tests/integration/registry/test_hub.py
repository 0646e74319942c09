"""The component hub over RPC: push, list, resolve, immutable tags, read-only built-ins and
``hub.component.pushed`` through the outbox."""

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_db import connect
from axonal_events import ErrorCode, StreamKind
from axonal_events.hub import ListComponents, PushComponent, ResolveComponent
from axonal_events.rpcs import Registry
from axonal_registry.domain.hub import BUILTIN_OWNER, LATEST, describe
from axonal_registry.hub import store
from axonal_registry.hub.builtins import builtin_versions
from axonal_spec import load
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

TRAINER = """\
version: 1.1
kind: component
name: trainer
description: Trains {model}.
inputs:
- {name: lr, type: float, value: 0.1, isOptional: true}
outputs:
- {name: loss, type: float, isOptional: true}
run:
  kind: job
  container: {image: python:3.12, command: [python, -c, "print('training {version}')"]}
"""


def trainer(version: str) -> str:
    return TRAINER.replace("{model}", "a model").replace("{version}", version)


async def push(nats_client, settings, tag, content, *, force=False, owner="acme"):
    request = PushComponent(owner=owner, name="trainer", tag=tag, content=content, force=force)
    return await rpc.call(nats_client, settings.subjects, Registry.push_component, request)


async def resolve(nats_client, settings, ref):
    request = ResolveComponent(ref=ref)
    return await rpc.call(nats_client, settings.subjects, Registry.resolve_component, request)


async def failure(call) -> RemoteError:
    with pytest.raises(RemoteError) as caught:
        await call
    return caught.value


async def test_a_pushed_version_resolves_and_latest_follows_the_newest_push(registry, nats_client):
    first = await push(nats_client, registry, "v1", trainer("v1"))
    assert (first.created, first.inputs, first.outputs) == (True, ["lr"], ["loss"])
    await push(nats_client, registry, "v2", trainer("v2"))

    found = await resolve(nats_client, registry, "acme/trainer:v2")
    assert "training v2" in found.content
    assert load(found.content).name == "trainer"
    for ref in ("acme/trainer", "acme/trainer:latest"):
        assert (await resolve(nats_client, registry, ref)).tag == "v2"

    await push(nats_client, registry, "v1", trainer("v1 again"), force=True)
    assert (await resolve(nats_client, registry, "acme/trainer")).tag == "v1"
    listed = await rpc.call(
        nats_client, registry.subjects, Registry.list_components, ListComponents(owner="acme")
    )
    assert [(c.tag, c.latest) for c in listed.components] == [("v1", True), ("v2", False)]


async def test_a_tag_is_immutable_unless_forced_and_a_same_push_changes_nothing(
    registry, nats_client
):
    await push(nats_client, registry, "v1", trainer("v1"))
    again = await push(nats_client, registry, "v1", trainer("v1"))
    assert again.created is False

    refused = await failure(push(nats_client, registry, "v1", trainer("other")))
    assert refused.code == ErrorCode.CONFLICT
    assert "immutable" in str(refused)

    forced = await push(nats_client, registry, "v1", trainer("other"), force=True)
    assert forced.created is True
    assert "training other" in (await resolve(nats_client, registry, "acme/trainer:v1")).content

    js = nats_client.jetstream()
    stream = registry.subjects.stream_name(StreamKind.EVENTS)

    async def pushed():
        found = await read_stream(js, stream, registry.subjects.events("hub"))
        return found if len(found) >= 2 else None

    events = [json.loads(data) for _, data, _ in await wait_for(pushed, message="2 pushes")]
    assert [e["type"] for e in events] == ["axonal.hub.component.pushed"] * 2
    assert events[0]["subject"] == "acme/trainer:v1"
    assert events[1]["data"]["replaced"] == events[0]["data"]["digest"]


async def test_a_malformed_component_is_refused_naming_the_field(registry, nats_client):
    broken = TRAINER.replace("kind: job", "kind: jobb")
    refused = await failure(push(nats_client, registry, "v1", broken))
    assert refused.code == ErrorCode.INVALID
    assert "content" in str(refused)
    assert "run" in str(refused)

    operation = "kind: operation\nhubRef: tensorboard\n"
    refused = await failure(push(nats_client, registry, "v1", operation))
    assert "content.kind" in str(refused)

    refused = await failure(push(nats_client, registry, "latest", trainer("v1")))
    assert refused.code == ErrorCode.INVALID
    assert "tag" in str(refused)


async def test_builtins_are_listed_resolved_and_read_only(registry, nats_client):
    listed = await rpc.call(
        nats_client, registry.subjects, Registry.list_components, ListComponents(owner="axonal")
    )
    versions = {(c.name, c.tag) for c in listed.components}
    assert {("tensorboard", "latest"), ("tensorboard", "multi-runs")} <= versions
    assert all(c.builtin for c in listed.components)

    for ref in ("tensorboard:multi-runs", "acme/tensorboard:multi-runs", "dockerizer"):
        found = await resolve(nats_client, registry, ref)
        assert found.builtin
        assert found.owner == "axonal"

    refused = await failure(push(nats_client, registry, "v9", trainer("x"), owner="axonal"))
    assert refused.code == ErrorCode.FORBIDDEN
    assert "read-only" in str(refused)


async def test_an_unknown_reference_names_what_exists(registry, nats_client):
    await push(nats_client, registry, "v1", trainer("v1"))
    missing_tag = await failure(resolve(nats_client, registry, "acme/trainer:v7"))
    assert missing_tag.code == ErrorCode.NOT_FOUND
    assert "has no tag `v7`" in str(missing_tag)
    assert "v1" in str(missing_tag)

    typo = await failure(resolve(nats_client, registry, "acme/trainr:v1"))
    assert "did you mean `trainer`" in str(typo)

    bad = await failure(resolve(nats_client, registry, "acme/trainer:v1:x"))
    assert bad.code == ErrorCode.INVALID


async def test_seeding_follows_the_shipped_builtins(registry, database_url):
    conn = await connect(database_url, schema="registry")
    try:
        gone = describe(BUILTIN_OWNER, "retired", LATEST, "kind: component\nrun: {kind: job}\n")
        await store.insert(conn, gone, builtin=True)
        shipped = builtin_versions()
        assert await store.seed(conn, shipped) == 1  # the retired one dropped, nothing else
        assert await store.find(conn, BUILTIN_OWNER, "retired", None) is None
        assert await store.seed(conn, shipped) == 0
    finally:
        await conn.close()
