"""Registered models over RPC on real NATS and PostgreSQL: versions, aliases, approval,
archiving, and the events each change emits through the outbox."""

import json

import pytest

from axonal_bus import rpc
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode, StreamKind
from axonal_events.model_registry import (
    ApprovePromotion,
    ArchiveModelVersion,
    CreateModelVersion,
    CreateRegisteredModel,
    GetModelVersion,
    ListPromotionRequests,
    ListRegisteredModels,
    ModelRef,
    PromoteModelVersion,
    PromotionStatus,
    ProtectAliases,
)
from axonal_events.rpcs import Registry
from axonal_testing.bus import read_stream
from axonal_testing.waiting import wait_for

PROJECT = "acme/churn"
RUN = "a" * 32


def version_of(sha: str, model: str = "churn") -> CreateModelVersion:
    return CreateModelVersion(
        project=PROJECT,
        model=model,
        run_uuid=RUN,
        artifact="model",
        sha256=sha * 64,
        path=f"acme/churn/.sha256/{sha * 64}",
        size=42,
    )


@pytest.fixture
def call(registry, nats_client):
    async def call(method, request):
        return await rpc.call(nats_client, registry.subjects, method, request)

    return call


async def events_of(nats_client, registry, count):
    js = nats_client.jetstream()
    stream = registry.subjects.stream_name(StreamKind.EVENTS)

    async def published():
        found = [json.loads(data) for _, data, _ in await read_stream(js, stream)]
        return found if len(found) >= count else None

    return await wait_for(published, message=f"{count} events published")


async def test_versions_aliases_and_archiving_emit_their_events(call, registry, nats_client):
    first = await call(Registry.create_version, version_of("1"))
    second = await call(Registry.create_version, version_of("2"))
    assert (first.version, second.version) == (1, 2)

    moved = await call(Registry.promote, PromoteModelVersion(
        project=PROJECT, model="churn", version=1, alias="production"))  # fmt: skip
    assert moved.status is PromotionStatus.MOVED
    assert moved.version.aliases == ["production"]
    moved = await call(Registry.promote, PromoteModelVersion(
        project=PROJECT, model="churn", version=2, alias="production"))  # fmt: skip
    assert moved.version.aliases == ["production"]

    model = await call(Registry.get_model, ModelRef(project=PROJECT, model="churn"))
    assert model.aliases == {"production": 2}
    assert model.latest_version == 2
    by_alias = await call(
        Registry.get_version, GetModelVersion(project=PROJECT, model="churn", ref="production")
    )
    assert by_alias.version == 2

    archived = await call(
        Registry.archive, ArchiveModelVersion(project=PROJECT, model="churn", version=2)
    )
    assert (archived.archived, archived.aliases) == (True, [])

    events = await events_of(nats_client, registry, 5)
    assert [(e["type"], e["subject"]) for e in events] == [
        ("axonal.model.version.created", "churn/1"),
        ("axonal.model.version.created", "churn/2"),
        ("axonal.model.version.promoted", "churn/1"),
        ("axonal.model.version.promoted", "churn/2"),
        ("axonal.model.version.archived", "churn/2"),
    ]
    promoted = events[3]
    assert promoted["project"] == PROJECT
    assert promoted["data"]["previous_version"] == 1
    assert events[4]["data"]["aliases"] == ["production"]


async def test_a_protected_alias_moves_on_approval(call, registry, nats_client):
    await call(Registry.create_model, CreateRegisteredModel(
        project=PROJECT, name="fraud", protected_aliases=["production"]))  # fmt: skip
    await call(Registry.create_version, version_of("3", model="fraud"))
    ask = PromoteModelVersion(
        project=PROJECT, model="fraud", version=1, alias="production", requested_by="ana"
    )
    asked = await call(Registry.promote, ask)
    assert asked.status is PromotionStatus.PENDING
    assert asked.request is not None
    assert asked.version.aliases == []
    again = await call(Registry.promote, ask)
    assert again.request == asked.request  # asking again waits on the same request
    pending = await call(
        Registry.promotion_requests, ListPromotionRequests(project=PROJECT, model="fraud")
    )
    assert [r.id for r in pending.requests] == [asked.request.id]

    approval = ApprovePromotion(
        project=PROJECT, model="fraud", request_id=asked.request.id, approved_by="ben"
    )
    approved = await call(Registry.approve, approval)
    assert approved.status is PromotionStatus.MOVED
    assert approved.version.aliases == ["production"]
    with pytest.raises(RemoteError, match=r"request_id: request \w+ was approved already"):
        await call(Registry.approve, ApprovePromotion(
            project=PROJECT, model="fraud", request_id=asked.request.id))  # fmt: skip

    events = await events_of(nats_client, registry, 2)
    assert [e["type"] for e in events] == [
        "axonal.model.version.created",
        "axonal.model.version.promoted",
    ]
    assert events[1]["data"]["approved_by"] == "ben"


async def test_protecting_aliases_is_checked(call):
    await call(Registry.create_version, version_of("4"))
    model = await call(Registry.protect_aliases, ProtectAliases(
        project=PROJECT, model="churn", aliases=["staging", "production"]))  # fmt: skip
    assert model.protected_aliases == ["production", "staging"]
    with pytest.raises(RemoteError, match="protected_aliases: 'archived' is a state") as raised:
        await call(Registry.protect_aliases, ProtectAliases(
            project=PROJECT, model="churn", aliases=["archived"]))  # fmt: skip
    assert raised.value.code is ErrorCode.INVALID
    listed = await call(Registry.list_models, ListRegisteredModels(project=PROJECT))
    assert [m.name for m in listed.models] == ["churn"]


@pytest.mark.parametrize(
    ("method", "request_", "code", "message"),
    [
        (Registry.promote, PromoteModelVersion(
            project=PROJECT, model="churn", version=9, alias="production"),
         ErrorCode.NOT_FOUND, "version: model 'churn' has no version 9"),
        (Registry.promote, PromoteModelVersion(
            project=PROJECT, model="churn", version=1, alias="Prod!"),
         ErrorCode.INVALID, "alias: 'Prod!' must be"),
        (Registry.get_version, GetModelVersion(project=PROJECT, model="churn", ref="champion"),
         ErrorCode.NOT_FOUND, "alias: no version of 'churn' holds alias 'champion'"),
        (Registry.create_version, version_of("5"),
         ErrorCode.CONFLICT, "sha256: model 'churn' already has these bytes"),
        (Registry.get_model, ModelRef(project=PROJECT, model="nope"),
         ErrorCode.NOT_FOUND, "model: no model 'nope'"),
    ],
)  # fmt: skip
async def test_bad_requests_name_the_field(call, method, request_, code, message):
    await call(Registry.create_version, version_of("5"))
    with pytest.raises(RemoteError, match=message) as raised:
        await call(method, request_)
    assert raised.value.code is code
