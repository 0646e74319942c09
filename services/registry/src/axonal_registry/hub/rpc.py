"""Request/reply: push, list and resolve component versions; ``hub.component.pushed`` leaves
through the outbox with the row it describes."""

from __future__ import annotations

from axonal_bus.errors import Conflict, Forbidden, Invalid
from axonal_bus.outbox import enqueue
from axonal_db import transaction
from axonal_events import HubComponentPushed, new_event
from axonal_events.hub import (
    ComponentList,
    HubComponent,
    ListComponents,
    PushComponent,
    ResolveComponent,
)
from axonal_events.rpcs import Registry
from axonal_registry.context import Context
from axonal_registry.domain.hub import (
    HubRuleError,
    PushOutcome,
    ReadOnlyError,
    push_outcome,
    version_to_push,
)
from axonal_registry.hub import lookup, store

__all__ = ["list_components", "push_component", "register", "resolve_component"]


async def push_component(ctx: Context, request: PushComponent) -> HubComponent:
    """Store the version unless its tag holds other content (then only with ``force``)."""
    try:
        version = version_to_push(request)
    except ReadOnlyError as exc:
        raise Forbidden(str(exc)) from None
    except HubRuleError as exc:
        raise Invalid(str(exc)) from None
    ref = f"{version.owner}/{version.name}:{version.tag}"
    async with transaction(ctx.pool) as conn:
        stored = await store.locked_digest(conn, version.owner, version.name, version.tag)
        outcome = push_outcome(stored, version.digest, force=request.force)
        if outcome is PushOutcome.CONFLICT:
            raise Conflict(
                f"{ref} holds other content already (sha256 {stored}): a tag is immutable; "
                "push a new tag, or force the push to replace it"
            )
        if outcome is PushOutcome.CREATED and not await store.insert(conn, version):
            raise Conflict(f"{ref} was pushed meanwhile by someone else: push again")
        if outcome is PushOutcome.REPLACED:
            await store.replace(conn, version)
        if outcome is not PushOutcome.UNCHANGED:
            pushed = HubComponentPushed(
                owner=version.owner,
                name=version.name,
                tag=version.tag,
                digest=version.digest,
                replaced=stored,
            )
            await enqueue(conn, ctx.subjects, new_event(pushed, source=ctx.source))
        found = await store.find(conn, version.owner, version.name, version.tag)
    assert found is not None  # just written
    return found.model_copy(update={"created": outcome is not PushOutcome.UNCHANGED})


async def list_components(ctx: Context, request: ListComponents) -> ComponentList:
    async with ctx.pool.acquire() as conn:
        found = await store.list_versions(conn, request.owner, request.name)
    return ComponentList(components=found)


async def resolve_component(ctx: Context, request: ResolveComponent) -> HubComponent:
    async with ctx.pool.acquire() as conn:
        return await lookup.resolve(conn, request.ref)


def register(ctx: Context) -> None:
    ctx.serve(Registry.push_component, push_component)
    ctx.serve(Registry.list_components, list_components)
    ctx.serve(Registry.resolve_component, resolve_component)
