"""Request/reply management of model definitions: a project's own, and the shipped ones
listed after them (those can be read, not deleted)."""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events.llm_models import (
    DeleteModel,
    GetModel,
    ListModels,
    ModelDefinition,
    ModelPage,
    ModelSpec,
)
from axonal_events.traces import PageMeta
from axonal_traces import shipped_models
from axonal_tracking import models_store

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    async def create_model(spec: ModelSpec) -> ModelDefinition:
        async with ctx.pool.acquire() as conn:
            return await models_store.create(conn, spec)

    async def definitions(project_id: str) -> list[ModelDefinition]:
        async with ctx.pool.acquire() as conn:
            own = await models_store.own(conn, project_id)
        return [*own, *shipped_models()]

    async def list_models(request: ListModels) -> ModelPage:
        every = await definitions(request.project_id)
        start = (request.page - 1) * request.limit
        meta = PageMeta.of(request.page, request.limit, len(every))
        return ModelPage(data=every[start : start + request.limit], meta=meta)

    async def get_model(request: GetModel) -> ModelDefinition:
        found = next((d for d in await definitions(request.project_id) if d.id == request.id), None)
        if found is None:
            raise Permanent(f"not found: model {request.id}")
        return found

    async def delete_model(request: DeleteModel) -> ModelDefinition:
        async with ctx.pool.acquire() as conn:
            deleted = await models_store.delete(conn, request.project_id, request.id)
        if deleted is not None:
            return deleted
        if any(d.id == request.id for d in shipped_models()):
            raise Permanent(f"model {request.id} is shipped with Axonal and cannot be deleted")
        raise Permanent(f"not found: model {request.id}")

    ctx.serve_rpc("create_model", ModelSpec, create_model)
    ctx.serve_rpc("list_models", ListModels, list_models)
    ctx.serve_rpc("get_model", GetModel, get_model)
    ctx.serve_rpc("delete_model", DeleteModel, delete_model)
