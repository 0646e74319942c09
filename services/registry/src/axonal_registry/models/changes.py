"""What each change of a model does, in one transaction with the event it emits.

A new version emits ``model.version.created``; an alias that moves emits
``model.version.promoted`` (a protected one first waits as a request that :func:`approve`
completes; an alias with gates takes only a version whose scores meet them, checked at the
request and at the approval); archiving emits ``model.version.archived``. Changes of one
model queue on its row.
"""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_bus.outbox import enqueue
from axonal_db import Connection, transaction
from axonal_events import new_event, uuid7
from axonal_events.catalog.models import (
    ModelVersionArchived,
    ModelVersionCreated,
    ModelVersionPromoted,
)
from axonal_events.model_registry import (
    AliasRequest,
    ApprovePromotion,
    ArchiveModelVersion,
    CreateModelVersion,
    CreateRegisteredModel,
    ModelVersion,
    PromoteModelVersion,
    Promotion,
    PromotionStatus,
    ProtectAliases,
    RegisteredModel,
)
from axonal_registry.context import Context
from axonal_registry.domain.aliases import (
    AliasError,
    Move,
    check_aliases,
    plan_move,
    plan_promotion,
)
from axonal_registry.domain.gates import latest_scores, unmet
from axonal_registry.domain.versions import DuplicateVersion, next_version
from axonal_registry.models import scores, store

__all__ = ["approve", "archive", "create_model", "create_version", "promote", "protect"]


async def create_model(ctx: Context, request: CreateRegisteredModel) -> RegisteredModel:
    protected = _checked(request.protected_aliases)
    async with transaction(ctx.pool) as conn:
        added = await store.insert_model(
            conn, request.project, request.name, request.description, protected
        )
        if not added:
            raise Conflict(f"name: model {request.name!r} already exists in {request.project}")
        return await _model(conn, request.project, request.name)


async def protect(ctx: Context, request: ProtectAliases) -> RegisteredModel:
    protected = _checked(request.aliases)
    async with transaction(ctx.pool) as conn:
        await _locked(conn, request.project, request.model)
        await store.set_protected(conn, request.project, request.model, protected)
        return await _model(conn, request.project, request.model)


async def create_version(ctx: Context, request: CreateModelVersion) -> ModelVersion:
    """A new version of the model (registered on its first version)."""
    async with transaction(ctx.pool) as conn:
        await store.ensure_model(conn, request.project, request.model)
        await _locked(conn, request.project, request.model)
        known = await store.versions_by_sha256(conn, request.project, request.model)
        try:
            number = next_version(request.model, known, request.sha256)
        except DuplicateVersion as exc:
            raise Conflict(str(exc)) from None
        await store.add_version(conn, request, number)
        created = ModelVersionCreated(
            project=request.project,
            model=request.model,
            version=number,
            run_uuid=request.run_uuid,
            artifact=request.artifact,
            sha256=request.sha256,
        )
        await _emit(ctx, conn, created)
        return await _version(conn, request.project, request.model, number)


async def promote(ctx: Context, request: PromoteModelVersion) -> Promotion:
    """Move the alias, or record a request when it is protected."""
    async with transaction(ctx.pool) as conn:
        model = await _locked(conn, request.project, request.model)
        version = await _version(conn, request.project, request.model, request.version)
        try:
            plan = plan_promotion(
                model.aliases,
                model.protected_aliases,
                alias=request.alias,
                version=request.version,
                archived=version.archived,
            )
        except AliasError as exc:
            raise Invalid(str(exc)) from None
        await _check_gates(conn, version, plan.alias)
        if isinstance(plan, Move):
            return await _move(ctx, conn, version, plan, approved_by=None)
        asked = await store.pending_request(
            conn, request.project, request.model, plan.alias, plan.version
        )
        if asked is not None:  # asking again waits on the same request
            return Promotion(status=PromotionStatus.PENDING, version=version, request=asked)
        pending = AliasRequest(
            id=uuid7().hex,
            project=request.project,
            model=request.model,
            alias=plan.alias,
            version=plan.version,
            requested_by=request.requested_by,
            created_at=datetime.now(UTC),
        )
        await store.add_request(conn, pending)
        return Promotion(status=PromotionStatus.PENDING, version=version, request=pending)


async def approve(ctx: Context, request: ApprovePromotion) -> Promotion:
    """Complete a pending request: the alias moves and ``model.version.promoted`` is emitted."""
    async with transaction(ctx.pool) as conn:
        model = await _locked(conn, request.project, request.model)
        pending = await store.get_request(conn, request.project, request.model, request.request_id)
        if pending is None:
            raise NotFound(f"request_id: no alias request {request.request_id} of {request.model}")
        if pending.approved_at is not None:
            raise Conflict(f"request_id: request {pending.id} was approved already")
        version = await _version(conn, request.project, request.model, pending.version)
        try:
            plan = plan_move(
                model.aliases,
                alias=pending.alias,
                version=pending.version,
                archived=version.archived,
            )
        except AliasError as exc:
            raise Conflict(str(exc)) from None
        await _check_gates(conn, version, pending.alias)
        await store.approve_request(conn, pending.id, request.approved_by)
        return await _move(ctx, conn, version, plan, approved_by=request.approved_by)


async def archive(ctx: Context, request: ArchiveModelVersion) -> ModelVersion:
    """Archive the version: it loses its aliases and takes no new one."""
    async with transaction(ctx.pool) as conn:
        await _locked(conn, request.project, request.model)
        version = await _version(conn, request.project, request.model, request.version)
        if version.archived:
            return version
        await store.delete_aliases_of(conn, request.project, request.model, request.version)
        await store.set_archived(conn, request.project, request.model, request.version)
        archived = ModelVersionArchived(
            project=request.project,
            model=request.model,
            version=request.version,
            aliases=version.aliases,
        )
        await _emit(ctx, conn, archived)
        return await _version(conn, request.project, request.model, request.version)


async def _move(
    ctx: Context, conn: Connection, version: ModelVersion, plan: Move, *, approved_by: str | None
) -> Promotion:
    if plan.previous != plan.version:
        await store.set_alias(conn, version.project, version.model, plan.alias, plan.version)
        promoted = ModelVersionPromoted(
            project=version.project,
            model=version.model,
            version=plan.version,
            alias=plan.alias,
            previous_version=plan.previous,
            run_uuid=version.run_uuid,
            sha256=version.sha256,
            approved_by=approved_by,
        )
        await _emit(ctx, conn, promoted)
    moved = await _version(conn, version.project, version.model, version.version)
    return Promotion(status=PromotionStatus.MOVED, version=moved)


async def _emit(
    ctx: Context,
    conn: Connection,
    data: ModelVersionCreated | ModelVersionPromoted | ModelVersionArchived,
) -> None:
    await enqueue(conn, ctx.subjects, new_event(data, source=ctx.source, project=data.project))


async def _check_gates(conn: Connection, version: ModelVersion, alias: str) -> None:
    """Refuse the move when the version's scores miss a gate of the alias."""
    required = await scores.gates_of(conn, version.project, version.model, alias)
    if not required:
        return
    recorded = await scores.scores_of(conn, version.project, version.model, version.version)
    reasons = unmet(alias, version.version, required[alias], latest_scores(recorded))
    if reasons:
        raise Invalid("; ".join(reasons))


def _checked(aliases: list[str]) -> list[str]:
    try:
        return check_aliases(aliases)
    except AliasError as exc:
        raise Invalid(str(exc).replace("alias:", "protected_aliases:", 1)) from None


async def _locked(conn: Connection, project: str, name: str) -> RegisteredModel:
    model = await store.lock_model(conn, project, name)
    if model is None:
        raise NotFound(f"model: no model {name!r} in {project}")
    return model


async def _model(conn: Connection, project: str, name: str) -> RegisteredModel:
    model = await store.get_model(conn, project, name)
    if model is None:
        raise NotFound(f"model: no model {name!r} in {project}")
    return model


async def _version(conn: Connection, project: str, model: str, number: int) -> ModelVersion:
    version = await store.get_version(conn, project, model, number)
    if version is None:
        raise NotFound(f"version: model {model!r} has no version {number}")
    return version
