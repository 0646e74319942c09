"""Langfuse-compatible LLM connections (``/api/public/llm-connections``) for the key's project.

``PUT`` creates or replaces the connection of a ``provider`` name; the secret key is stored
encrypted by the evaluation service and only ever answered masked (``displaySecretKey``), the
extra headers by their names only (``extraHeaderKeys``). Adapters: ``openai`` (any
OpenAI-compatible endpoint with ``baseURL``) and ``anthropic``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep
from axonal_api.public_bodies import Camel, Paged, PageInfo
from axonal_events.evaluators import (
    DeleteLlmConnection,
    ListLlmConnections,
    LlmConnection,
    UpsertLlmConnection,
)
from axonal_events.rpcs import Evaluation
from axonal_traces.values import error_reason

__all__ = ["router"]

router = APIRouter(
    prefix="/api/public/llm-connections", tags=["llm connections"], responses=READ_RESPONSES
)


class UpsertLlmConnectionRequest(BaseModel):
    """Langfuse's ``UpsertLlmConnectionRequest``."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    provider: str
    adapter: str = Field(description="openai or anthropic.")
    secret_key: str
    base_url: str | None = Field(default=None, alias="baseURL")
    custom_models: list[str] | None = None
    with_default_models: bool | None = None
    extra_headers: dict[str, str] | None = None
    config: dict[str, Any] | None = None


class LangfuseLlmConnection(Camel):
    """Langfuse's ``LlmConnection`` (secrets excluded)."""

    id: str
    provider: str
    adapter: str
    display_secret_key: str
    base_url: str | None = Field(default=None, alias="baseURL")
    custom_models: list[str]
    with_default_models: bool
    extra_header_keys: list[str]
    config: dict[str, Any] | None = None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, found: LlmConnection) -> LangfuseLlmConnection:
        return cls.model_validate(found.model_dump(exclude={"project_id"}))


class DeleteLlmConnectionResponse(BaseModel):
    message: str


@router.get("", summary="The project's LLM connections, secrets masked")
async def list_connections(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=1000)] = 50,
) -> Paged[LangfuseLlmConnection]:
    query = ListLlmConnections(project_id=project.id, page=page, limit=limit)
    found = await gw.call(Evaluation.list_llm_connections, query)
    data = [LangfuseLlmConnection.of(c) for c in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.put("", summary="Create or replace the connection of a provider name")
async def upsert_connection(
    gw: GatewayDep, project: KeyProjectDep, body: UpsertLlmConnectionRequest
) -> LangfuseLlmConnection:
    try:
        request = UpsertLlmConnection.model_validate(
            {
                "project_id": project.id,
                "provider": body.provider,
                "adapter": body.adapter,
                "secret_key": body.secret_key,
                "base_url": body.base_url,
                "custom_models": body.custom_models or [],
                "with_default_models": True
                if body.with_default_models is None
                else body.with_default_models,
                "extra_headers": body.extra_headers or {},
                "config": body.config,
            }
        )
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None
    return LangfuseLlmConnection.of(await gw.call(Evaluation.upsert_llm_connection, request))


@router.delete("/{connection_id}", summary="Delete a connection")
async def delete_connection(
    gw: GatewayDep, project: KeyProjectDep, connection_id: str
) -> DeleteLlmConnectionResponse:
    query = DeleteLlmConnection(project_id=project.id, id=connection_id)
    deleted = await gw.call(Evaluation.delete_llm_connection, query)
    return DeleteLlmConnectionResponse(message=deleted.message)
