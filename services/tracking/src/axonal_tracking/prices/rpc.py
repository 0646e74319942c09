"""Request/reply: LLM model definitions, a project's own and, listed after them, the shipped
ones (those can be read, not deleted)."""

from __future__ import annotations

from axonal_bus.errors import Invalid, NotFound
from axonal_events.llm_models import (
    DeleteModel,
    GetModel,
    ListModels,
    ModelDefinition,
    ModelPage,
    ModelSpec,
)
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import PageMeta
from axonal_traces import shipped_models
from axonal_tracking.context import Context
from axonal_tracking.prices import store

__all__ = ["create_model", "delete_model", "get_model", "list_models", "register"]


async def _definitions(ctx: Context, project_id: str) -> list[ModelDefinition]:
    """The project's own definitions (newest first), then the shipped ones."""
    async with ctx.pool.acquire() as conn:
        own = await store.own(conn, project_id)
    return [*own, *shipped_models()]


async def create_model(ctx: Context, request: ModelSpec) -> ModelDefinition:
    async with ctx.pool.acquire() as conn:
        return await store.create(conn, request)


async def list_models(ctx: Context, request: ListModels) -> ModelPage:
    every = await _definitions(ctx, request.project_id)
    start = (request.page - 1) * request.limit
    meta = PageMeta.of(request.page, request.limit, len(every))
    return ModelPage(data=every[start : start + request.limit], meta=meta)


async def get_model(ctx: Context, request: GetModel) -> ModelDefinition:
    every = await _definitions(ctx, request.project_id)
    found = next((d for d in every if d.id == request.id), None)
    if found is None:
        raise NotFound(f"model {request.id} does not exist")
    return found


async def delete_model(ctx: Context, request: DeleteModel) -> ModelDefinition:
    """Delete one of the project's definitions; a shipped one is refused (``invalid``)."""
    async with ctx.pool.acquire() as conn:
        deleted = await store.delete(conn, request.project_id, request.id)
    if deleted is not None:
        return deleted
    if any(d.id == request.id for d in shipped_models()):
        raise Invalid(f"model {request.id} is shipped with Axonal and cannot be deleted")
    raise NotFound(f"model {request.id} does not exist")


def register(ctx: Context) -> None:
    ctx.serve(Tracking.create_model, create_model)
    ctx.serve(Tracking.list_models, list_models)
    ctx.serve(Tracking.get_model, get_model)
    ctx.serve(Tracking.delete_model, delete_model)
