"""Request/reply: create, read, list and change (or archive) score configs."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from axonal_bus.errors import Invalid, NotFound
from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.score_configs import store
from axonal_events.rpcs import Evaluation
from axonal_events.score_configs import (
    BOOLEAN_CATEGORIES,
    CreateScoreConfig,
    GetScoreConfig,
    GetScoreConfigs,
    ListScoreConfigs,
    ScoreConfig,
    ScoreConfigList,
    ScoreConfigPage,
    UpdateScoreConfig,
    config_problem,
)
from axonal_events.trace_reads import PageMeta
from axonal_events.traces import ScoreDataType

__all__ = [
    "create_score_config",
    "get_score_config",
    "get_score_configs",
    "list_score_configs",
    "register",
    "update_score_config",
]


async def create_score_config(ctx: Context, request: CreateScoreConfig) -> ScoreConfig:
    now = datetime.now(UTC)
    boolean = request.data_type is ScoreDataType.BOOLEAN
    config = ScoreConfig(
        id=str(uuid.uuid4()),
        project_id=request.project_id,
        name=request.name,
        data_type=request.data_type,
        min_value=request.min_value,
        max_value=request.max_value,
        categories=list(BOOLEAN_CATEGORIES) if boolean else request.categories,
        description=request.description,
        created_at=now,
        updated_at=now,
    )
    async with ctx.pool.acquire() as conn:
        await store.insert(conn, config)
    return config


async def get_score_config(ctx: Context, request: GetScoreConfig) -> ScoreConfig:
    async with ctx.pool.acquire() as conn:
        found = await store.find(conn, request.project_id, request.id)
    if found is None:
        raise NotFound(f"Score config not found: {request.id}")
    return found


async def get_score_configs(ctx: Context, request: GetScoreConfigs) -> ScoreConfigList:
    async with ctx.pool.acquire() as conn:
        found = await store.find_many(conn, request.project_id, sorted(set(request.ids)))
    return ScoreConfigList(data=found)


async def list_score_configs(ctx: Context, request: ListScoreConfigs) -> ScoreConfigPage:
    async with ctx.pool.acquire() as conn:
        data = await store.page(conn, request.project_id, request.page, request.limit)
        total = await store.count(conn, request.project_id)
    return ScoreConfigPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def update_score_config(ctx: Context, request: UpdateScoreConfig) -> ScoreConfig:
    """The fields given replace the stored ones; the result must still be a valid config."""
    changes = request.model_dump(exclude={"project_id", "id"}, exclude_none=True)
    async with transaction(ctx.pool) as conn:
        found = await store.find(conn, request.project_id, request.id, lock=True)
        if found is None:
            raise NotFound(f"Score config not found: {request.id}")
        updated = ScoreConfig.model_validate(
            found.model_dump() | changes | {"updated_at": datetime.now(UTC)}
        )
        problem = config_problem(
            updated.data_type,
            updated.name,
            updated.categories,
            updated.min_value,
            updated.max_value,
        )
        if problem:
            raise Invalid(problem)
        await store.update(conn, updated)
    return updated


def register(ctx: Context) -> None:
    ctx.serve(Evaluation.create_score_config, create_score_config)
    ctx.serve(Evaluation.get_score_config, get_score_config)
    ctx.serve(Evaluation.get_score_configs, get_score_configs)
    ctx.serve(Evaluation.list_score_configs, list_score_configs)
    ctx.serve(Evaluation.update_score_config, update_score_config)
