"""Prompts over RPC on a real NATS and PostgreSQL: versions, labels, composition, deletes,
events through the outbox, and bad requests refused naming the field."""

from __future__ import annotations

import json
from typing import Any

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, StreamKind
from axonal_events.prompts import (
    CreatePrompt,
    DeletePrompt,
    GetPrompt,
    GetPromptVersions,
    ListPrompts,
    ProtectedLabels,
    ProtectedLabelsOf,
    SetPromptLabels,
)
from axonal_events.rpcs import Registry
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

P = "project-1"


@pytest.fixture
def call(registry, nats_client):
    async def calling(method: Any, payload: Any) -> Any:
        return await rpc.call(nats_client, registry.subjects, method, payload)

    return calling


async def create(call, name: str, prompt: Any, **fields: Any):
    request = CreatePrompt(project_id=P, name=name, prompt=prompt, **fields)
    return await call(Registry.create_prompt, request)


async def get(call, name: str, **fields: Any):
    return await call(Registry.get_prompt, GetPrompt(project_id=P, name=name, **fields))


async def test_versions_and_labels_move_and_events_leave_with_them(call, registry, nats_client):
    first = await create(call, "support/greet", "Hi {{name}}", labels=["production"], tags=["a"])
    second = await create(call, "support/greet", "Hello {{name}}", commit_message="warmer")
    assert (first.version, second.version) == (1, 2)
    assert (second.labels, second.tags) == (["latest"], ["a"])
    assert (await get(call, "support/greet")).version == 1  # production by default
    assert (await get(call, "support/greet", label="latest")).prompt == "Hello {{name}}"

    moved = await call(
        Registry.set_prompt_labels,
        SetPromptLabels(project_id=P, name="support/greet", version=2, new_labels=["production"]),
    )
    assert moved.labels == ["latest", "production"]
    assert (await get(call, "support/greet", version=1)).labels == []

    listed = await call(Registry.list_prompts, ListPrompts(project_id=P, label="production"))
    assert [(m.name, m.versions, m.labels) for m in listed.data] == [
        ("support/greet", [2], ["latest", "production"])
    ]
    assert listed.meta.total_items == 1

    js = nats_client.jetstream()
    subjects = registry.subjects

    async def published() -> list[dict[str, Any]] | None:
        found = await read_stream(js, subjects.stream_name(StreamKind.EVENTS), subjects.events())
        return found if found and len(found) >= 5 else None

    events = [json.loads(data) for _, data, _ in await wait_for(published, message="events")]
    kinds = [e["type"] for e in events]
    assert kinds.count("axonal.prompt.version.created") == 2
    assert kinds.count("axonal.prompt.labels.changed") == 3
    last = [e for e in events if e["type"] == "axonal.prompt.labels.changed"][-1]["data"]
    assert last["moves"] == [{"label": "production", "from_version": 1, "to_version": 2}]


async def test_chat_prompt_with_a_placeholder_and_versions_list(call):
    messages = [
        {"role": "system", "content": "You help {{user}}."},
        {"type": "placeholder", "name": "history"},
    ]
    created = await create(call, "chat", messages, type="chat", config={"model": "m"})
    assert (created.prompt, created.config) == (messages, {"model": "m"})
    listed = await call(Registry.prompt_versions, GetPromptVersions(project_id=P, name="chat"))
    assert [v.version for v in listed.versions] == [1]


async def test_composition_resolves_recursively_and_refuses_cycles(call):
    await create(call, "base", "be brief", labels=["production"])
    await create(call, "mid", "@@@langfusePrompt:name=base|label=production@@@ and kind")
    top = await create(call, "top", "Rules: @@@langfusePrompt:name=mid|version=1@@@.")
    resolved = await get(call, "top", version=top.version)
    assert resolved.prompt == "Rules: be brief and kind."
    graph = resolved.resolution_graph
    assert graph is not None
    assert graph["root"]["name"] == "top"
    raw = await get(call, "top", version=1, resolve=False)
    assert raw.prompt.startswith("Rules: @@@langfusePrompt:name=mid")
    assert raw.resolution_graph is None

    with pytest.raises(RemoteError, match=r"cycle: base v2 -> mid v1 -> base v") as raised:
        await create(call, "base", "see @@@langfusePrompt:name=mid|version=1@@@")
    assert raised.value.code is ErrorCode.INVALID
    with pytest.raises(RemoteError, match="embeds missing@production, which does not exist"):
        await create(call, "x", "@@@langfusePrompt:name=missing|label=production@@@")
    with pytest.raises(RemoteError, match="embedded by other prompts: mid v1 embeds base"):
        await call(Registry.delete_prompt, DeletePrompt(project_id=P, name="base"))


async def test_delete_by_label_moves_latest_and_unknowns_are_not_found(call):
    for text in ("one", "two", "three"):
        await create(call, "d", text)
    await call(
        Registry.set_prompt_labels,
        SetPromptLabels(project_id=P, name="d", version=3, new_labels=["staging"]),
    )
    deleted = await call(
        Registry.delete_prompt, DeletePrompt(project_id=P, name="d", label="staging")
    )
    assert deleted.versions == [3]
    assert (await get(call, "d", label="latest")).version == 2
    for fields in ({"version": 9}, {"label": "nope"}, {}):
        with pytest.raises(RemoteError) as raised:
            await get(call, "d", **fields)
        assert raised.value.code is ErrorCode.NOT_FOUND
    with pytest.raises(RemoteError, match="version: prompt 'd' has no version 7") as raised:
        await call(
            Registry.set_prompt_labels,
            SetPromptLabels(project_id=P, name="d", version=7, new_labels=["production"]),
        )
    assert raised.value.code is ErrorCode.NOT_FOUND
    await call(Registry.delete_prompt, DeletePrompt(project_id=P, name="d"))
    with pytest.raises(RemoteError):
        await call(Registry.prompt_versions, GetPromptVersions(project_id=P, name="d"))


async def test_a_type_change_and_clashing_names_are_refused(call):
    await create(call, "t", "text")
    with pytest.raises(RemoteError, match="type: t is a text prompt"):
        await create(call, "t", [{"role": "user", "content": "hi"}], type="chat")
    clash = [{"role": "user", "content": "{{h}}"}, {"type": "placeholder", "name": "h"}]
    with pytest.raises(RemoteError, match="share names: h"):
        await create(call, "c2", clash, type="chat")


async def test_protected_labels_are_stored_per_project(call):
    stored = await call(
        Registry.set_protected_labels,
        ProtectedLabels(project_id=P, labels=["production", "production", "staging"]),
    )
    assert stored.labels == ["production", "staging"]
    other = await call(Registry.protected_labels, ProtectedLabelsOf(project_id="other"))
    assert other.labels == []


async def test_a_cycle_made_by_moving_labels_is_named_on_read(call):
    await create(call, "a", "plain a", labels=["production"])
    await create(call, "c", "plain c", labels=["prod2"])
    await create(call, "c", "c sees @@@langfusePrompt:name=a|label=production@@@")
    await create(call, "a", "a sees @@@langfusePrompt:name=c|label=prod2@@@")
    assert (await get(call, "a", version=2)).prompt == "a sees plain c"
    for name, version, label in (("c", 2, "prod2"), ("a", 2, "production")):
        await call(
            Registry.set_prompt_labels,
            SetPromptLabels(project_id=P, name=name, version=version, new_labels=[label]),
        )
    with pytest.raises(
        RemoteError, match=r"prompt: prompt composition has a cycle: a v2 -> c v2 -> a v2"
    ) as raised:
        await get(call, "a")
    assert raised.value.code is ErrorCode.INVALID
    assert (await get(call, "a", resolve=False)).prompt.startswith("a sees @@@")


async def test_the_list_filters_and_pages_as_langfuse_does(call):
    await create(call, "a", "a1", tags=["x"])
    await create(call, "a", "a2", labels=["production"], config={"v": 2})
    await create(call, "b", "b1", tags=["y"])
    await create(call, "c", "c1", tags=["x", "y"])

    async def names(**fields: Any) -> list[str]:
        found = await call(Registry.list_prompts, ListPrompts(project_id=P, **fields))
        return [m.name for m in found.data]

    assert await names(tag="x") == ["a", "c"]  # a's tags are kept from its first version
    assert await names(label="production") == ["a"]
    assert await names(version=2) == ["a"]
    first = await call(Registry.list_prompts, ListPrompts(project_id=P, limit=2))
    assert [m.name for m in first.data] == ["a", "b"]
    assert (first.meta.total_items, first.meta.total_pages) == (3, 2)
    assert first.data[0].versions == [1, 2]
    assert first.data[0].last_config == {"v": 2}
    assert await names(page=2, limit=2) == ["c"]
    later = first.data[0].last_updated_at
    assert await names(from_updated_at=later, name="a") == ["a"]
    assert await names(to_updated_at=later, name="a") == []
