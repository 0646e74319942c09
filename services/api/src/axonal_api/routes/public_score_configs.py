"""Langfuse-compatible score configs (``/api/public/score-configs``) for the key's project.

A config fixes what a score name may hold: a NUMERIC range, CATEGORICAL categories
(``{label, value}``), BOOLEAN (its True/False categories made by the service) or TEXT. Configs
are archived with ``PATCH {isArchived: true}``, never deleted. Bodies and answers are
Langfuse's camelCase shapes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import ConfigDict, ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep
from axonal_api.public_bodies import Camel, Paged, PageInfo
from axonal_api.score_config_cache import ScoreConfigCacheDep
from axonal_events.rpcs import Evaluation
from axonal_events.score_configs import (
    CreateScoreConfig,
    GetScoreConfig,
    ListScoreConfigs,
    ScoreConfig,
    UpdateScoreConfig,
)
from axonal_events.traces import ScoreDataType
from axonal_traces.values import error_reason

__all__ = ["LangfuseScoreConfig", "router"]

router = APIRouter(
    prefix="/api/public/score-configs", tags=["score configs"], responses=READ_RESPONSES
)


class Category(Camel):
    value: float
    label: str


class LangfuseScoreConfig(Camel):
    """Langfuse's ``ScoreConfig``."""

    id: str
    name: str
    created_at: datetime
    updated_at: datetime
    project_id: str
    data_type: ScoreDataType
    is_archived: bool
    min_value: float | None = None
    max_value: float | None = None
    categories: list[Category] | None = None
    description: str | None = None

    @classmethod
    def of(cls, config: ScoreConfig) -> LangfuseScoreConfig:
        return cls.model_validate(config.model_dump())


class _Body(Camel):
    model_config = ConfigDict(extra="forbid")

    categories: list[Category] | None = None
    min_value: float | None = None
    max_value: float | None = None
    description: str | None = None


class CreateScoreConfigBody(_Body):
    """Langfuse's ``CreateScoreConfigRequest``."""

    name: str
    data_type: ScoreDataType


class UpdateScoreConfigBody(_Body):
    """Langfuse's ``UpdateScoreConfigRequest``: the fields sent are changed."""

    is_archived: bool | None = None
    name: str | None = None


def _fields(body: _Body) -> dict[str, object]:
    return body.model_dump(include=body.model_fields_set)


@router.post("", summary="Create a score config")
async def create_score_config(
    gw: GatewayDep, project: KeyProjectDep, body: CreateScoreConfigBody
) -> LangfuseScoreConfig:
    try:
        request = CreateScoreConfig.model_validate(_fields(body) | {"project_id": project.id})
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None
    return LangfuseScoreConfig.of(await gw.call(Evaluation.create_score_config, request))


@router.get("", summary="The project's score configs, newest first")
async def list_score_configs(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> Paged[LangfuseScoreConfig]:
    query = ListScoreConfigs(project_id=project.id, page=page, limit=limit)
    found = await gw.call(Evaluation.list_score_configs, query)
    return Paged(data=[LangfuseScoreConfig.of(c) for c in found.data], meta=PageInfo.of(found.meta))


@router.get("/{config_id}", summary="One score config")
async def get_score_config(
    gw: GatewayDep, project: KeyProjectDep, config_id: str
) -> LangfuseScoreConfig:
    query = GetScoreConfig(project_id=project.id, id=config_id)
    return LangfuseScoreConfig.of(await gw.call(Evaluation.get_score_config, query))


@router.patch("/{config_id}", summary="Change or archive a score config")
async def update_score_config(
    gw: GatewayDep,
    project: KeyProjectDep,
    cache: ScoreConfigCacheDep,
    config_id: str,
    body: UpdateScoreConfigBody,
) -> LangfuseScoreConfig:
    try:
        request = UpdateScoreConfig.model_validate(
            _fields(body) | {"project_id": project.id, "id": config_id}
        )
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None
    updated = await gw.call(Evaluation.update_score_config, request)
    cache.drop(project.id, config_id)
    return LangfuseScoreConfig.of(updated)
