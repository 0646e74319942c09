"""Request/reply: create, read, list, label and delete prompts; protected labels."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_bus.outbox import enqueue_many
from axonal_db import Connection, transaction
from axonal_events import new_event
from axonal_events.base import EventData
from axonal_events.prompts import (
    PRODUCTION,
    CreatePrompt,
    DeletedPrompt,
    DeletePrompt,
    GetPrompt,
    GetPromptVersions,
    ListPrompts,
    PromptMetaPage,
    PromptVersion,
    PromptVersionList,
    ProtectedLabels,
    ProtectedLabelsOf,
    SetPromptLabels,
)
from axonal_events.rpcs import Registry
from axonal_events.trace_reads import PageMeta
from axonal_registry.context import Context
from axonal_registry.prompts import store, versions
from axonal_registry.prompts.composition import resolve

__all__ = [
    "create_prompt",
    "delete_prompt",
    "get_prompt",
    "list_prompts",
    "prompt_versions",
    "protected_labels",
    "register",
    "set_prompt_labels",
    "set_protected_labels",
]


async def _emit(ctx: Context, conn: Connection, project: str | None, data: list[EventData]) -> None:
    events = [new_event(d, source=ctx.source, project=project) for d in data]
    await enqueue_many(conn, ctx.subjects, events)


async def create_prompt(ctx: Context, request: CreatePrompt) -> PromptVersion:
    async with transaction(ctx.pool) as conn:
        created, events = await versions.create(conn, request)
        await _emit(ctx, conn, request.project, events)
    return created


async def get_prompt(ctx: Context, request: GetPrompt) -> PromptVersion:
    """One query; the prompts it embeds are read only when it has a reference to resolve."""
    label = request.label if request.label or request.version else PRODUCTION
    async with ctx.pool.acquire() as conn:
        found = await store.find(
            conn, request.project_id, request.name, version=request.version, label=label
        )
        if found is None:
            which = f"version {request.version}" if request.version else f"label '{label}'"
            raise NotFound(f"Prompt not found: '{request.name}' with {which}")
        if not (request.resolve and found.embeds):
            return found.prompt
        return await resolve(conn, found.prompt)


async def prompt_versions(ctx: Context, request: GetPromptVersions) -> PromptVersionList:
    async with ctx.pool.acquire() as conn:
        found = await store.versions(conn, request.project_id, request.name)
    if not found:
        raise NotFound(f"Prompt not found: '{request.name}'")
    return PromptVersionList(versions=found)


async def list_prompts(ctx: Context, request: ListPrompts) -> PromptMetaPage:
    async with ctx.pool.acquire() as conn:
        data = await store.list_meta(conn, request)
        total = await store.count_names(conn, request)
    return PromptMetaPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def set_prompt_labels(ctx: Context, request: SetPromptLabels) -> PromptVersion:
    async with transaction(ctx.pool) as conn:
        updated, events = await versions.set_labels(conn, request)
        await _emit(ctx, conn, request.project, events)
    return updated


async def delete_prompt(ctx: Context, request: DeletePrompt) -> DeletedPrompt:
    async with transaction(ctx.pool) as conn:
        deleted, events = await versions.delete(conn, request)
        await _emit(ctx, conn, request.project, events)
    return deleted


async def protected_labels(ctx: Context, request: ProtectedLabelsOf) -> ProtectedLabels:
    async with ctx.pool.acquire() as conn:
        labels = await store.protected_labels(conn, request.project_id)
    return ProtectedLabels(project_id=request.project_id, labels=labels)


async def set_protected_labels(ctx: Context, request: ProtectedLabels) -> ProtectedLabels:
    async with transaction(ctx.pool) as conn:
        await store.set_protected_labels(conn, request.project_id, sorted(set(request.labels)))
        labels = await store.protected_labels(conn, request.project_id)
    return ProtectedLabels(project_id=request.project_id, labels=labels)


def register(ctx: Context) -> None:
    ctx.serve(Registry.create_prompt, create_prompt)
    ctx.serve(Registry.get_prompt, get_prompt)
    ctx.serve(Registry.prompt_versions, prompt_versions)
    ctx.serve(Registry.list_prompts, list_prompts)
    ctx.serve(Registry.set_prompt_labels, set_prompt_labels)
    ctx.serve(Registry.delete_prompt, delete_prompt)
    ctx.serve(Registry.protected_labels, protected_labels)
    ctx.serve(Registry.set_protected_labels, set_protected_labels)
