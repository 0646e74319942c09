"""Request/reply: register models, make versions, move and protect aliases, approve, archive,
and read models, versions and requests."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_events.model_registry import (
    AliasRequestList,
    GetModelVersion,
    ListModelVersions,
    ListPromotionRequests,
    ListRegisteredModels,
    ModelRef,
    ModelVersion,
    ModelVersionList,
    RegisteredModel,
    RegisteredModelList,
)
from axonal_events.rpcs import Registry
from axonal_registry.context import Context
from axonal_registry.models import changes, evaluations, store

__all__ = [
    "get_model",
    "get_version",
    "list_models",
    "list_versions",
    "promotion_requests",
    "register",
]


async def list_models(ctx: Context, request: ListRegisteredModels) -> RegisteredModelList:
    async with ctx.pool.acquire() as conn:
        return RegisteredModelList(models=await store.list_models(conn, request.project))


async def get_model(ctx: Context, request: ModelRef) -> RegisteredModel:
    async with ctx.pool.acquire() as conn:
        model = await store.get_model(conn, request.project, request.model)
    if model is None:
        raise NotFound(f"model: no model {request.model!r} in {request.project}")
    return model


async def list_versions(ctx: Context, request: ListModelVersions) -> ModelVersionList:
    await get_model(ctx, request)
    async with ctx.pool.acquire() as conn:
        versions = await store.list_versions(conn, request.project, request.model)
    return ModelVersionList(versions=versions)


async def get_version(ctx: Context, request: GetModelVersion) -> ModelVersion:
    """A version by number (``3``, ``v3``) or by the alias it holds."""
    async with ctx.pool.acquire() as conn:
        return await evaluations.resolve_version(conn, request.project, request.model, request.ref)


async def promotion_requests(ctx: Context, request: ListPromotionRequests) -> AliasRequestList:
    await get_model(ctx, request)
    async with ctx.pool.acquire() as conn:
        found = await store.list_requests(
            conn, request.project, request.model, pending_only=request.pending_only
        )
    return AliasRequestList(requests=found)


def register(ctx: Context) -> None:
    ctx.serve(Registry.create_model, changes.create_model)
    ctx.serve(Registry.list_models, list_models)
    ctx.serve(Registry.get_model, get_model)
    ctx.serve(Registry.protect_aliases, changes.protect)
    ctx.serve(Registry.create_version, changes.create_version)
    ctx.serve(Registry.list_versions, list_versions)
    ctx.serve(Registry.get_version, get_version)
    ctx.serve(Registry.promote, changes.promote)
    ctx.serve(Registry.archive, changes.archive)
    ctx.serve(Registry.approve, changes.approve)
    ctx.serve(Registry.promotion_requests, promotion_requests)
    ctx.serve(Registry.record_scores, evaluations.record_scores)
    ctx.serve(Registry.version_scores, evaluations.read_scores)
    ctx.serve(Registry.set_gates, evaluations.set_gates)
    ctx.serve(Registry.gates, evaluations.gates)
