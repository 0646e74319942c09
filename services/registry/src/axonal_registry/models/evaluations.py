"""Evaluations of model versions: the scores runs record on them, each with a
``model.version.evaluated`` event in the same transaction, and the gates of aliases."""

from __future__ import annotations

from axonal_bus.errors import Invalid, NotFound
from axonal_bus.outbox import enqueue
from axonal_db import Connection, transaction
from axonal_events import new_event
from axonal_events.catalog.models import ModelVersionEvaluated
from axonal_events.model_evaluations import (
    ModelVersionScores,
    PromotionGates,
    ReadModelScores,
    RecordModelScores,
    SetPromotionGates,
)
from axonal_events.model_registry import ModelRef, ModelVersion
from axonal_registry.context import Context
from axonal_registry.domain.aliases import AliasError
from axonal_registry.domain.versions import parse_ref
from axonal_registry.models import scores, store

__all__ = ["gates", "read_scores", "record_scores", "resolve_version", "set_gates"]


async def resolve_version(conn: Connection, project: str, model: str, ref: str) -> ModelVersion:
    """The version ``ref`` names: ``3``, ``v3`` or the alias it holds."""
    try:
        parsed = parse_ref(ref)
    except AliasError as exc:
        raise Invalid(str(exc).replace("alias:", "ref:", 1)) from None
    found = await store.get_model(conn, project, model)
    if found is None:
        raise NotFound(f"model: no model {model!r} in {project}")
    if isinstance(parsed, str):
        if parsed not in found.aliases:
            raise NotFound(f"alias: no version of {model!r} holds alias {parsed!r}")
        parsed = found.aliases[parsed]
    version = await store.get_version(conn, project, model, parsed)
    if version is None:
        raise NotFound(f"version: model {model!r} has no version {parsed}")
    return version


async def record_scores(ctx: Context, request: RecordModelScores) -> ModelVersionScores:
    async with transaction(ctx.pool) as conn:
        version = await resolve_version(conn, request.project, request.model, request.ref)
        await scores.add_scores(conn, request, version.version)
        evaluated = ModelVersionEvaluated(
            project=request.project,
            model=request.model,
            version=version.version,
            run_uuid=request.run_uuid,
            dataset=request.dataset,
            scores=request.scores,
        )
        event = new_event(evaluated, source=ctx.source, project=request.project)
        await enqueue(conn, ctx.subjects, event)
        found = await scores.scores_of(conn, request.project, request.model, version.version)
    return ModelVersionScores(model=request.model, version=version.version, scores=found)


async def read_scores(ctx: Context, request: ReadModelScores) -> ModelVersionScores:
    async with ctx.pool.acquire() as conn:
        version = await resolve_version(conn, request.project, request.model, request.ref)
        found = await scores.scores_of(conn, request.project, request.model, version.version)
    return ModelVersionScores(model=request.model, version=version.version, scores=found)


async def set_gates(ctx: Context, request: SetPromotionGates) -> PromotionGates:
    metrics = [gate.metric for gate in request.gates]
    if twice := sorted({m for m in metrics if metrics.count(m) > 1}):
        raise Invalid(f"gates: one gate per metric and alias; {', '.join(twice)} given twice")
    async with transaction(ctx.pool) as conn:
        if await store.lock_model(conn, request.project, request.model) is None:
            raise NotFound(f"model: no model {request.model!r} in {request.project}")
        await scores.set_gates(conn, request.project, request.model, request.alias, request.gates)
        found = await scores.gates_of(conn, request.project, request.model)
    return PromotionGates(model=request.model, gates=found)


async def gates(ctx: Context, request: ModelRef) -> PromotionGates:
    async with ctx.pool.acquire() as conn:
        if await store.get_model(conn, request.project, request.model) is None:
            raise NotFound(f"model: no model {request.model!r} in {request.project}")
        found = await scores.gates_of(conn, request.project, request.model)
    return PromotionGates(model=request.model, gates=found)
