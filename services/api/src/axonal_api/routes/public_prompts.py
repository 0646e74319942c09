"""Langfuse-compatible prompt management (``/api/public/v2/prompts``) for the key's project.

Bodies and answers are Langfuse's camelCase shapes; errors are answered the Langfuse way
(``{"message", "error"}``, see ``axonal_api.errors.LANGFUSE_SHAPED``), a missing prompt as
``LangfuseNotFoundError`` (404), on which the SDKs fall back. Names may hold ``/`` folders:
the SDKs send them URL-encoded, and the path converter takes the decoded name whole.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec
from fastapi import APIRouter, Query, Request, Response
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from axonal_api.deps import GatewayDep, PromptCacheDep, gateway_of
from axonal_api.prompt_cache import PromptCache
from axonal_api.protected_labels import check_deletion_rights, check_label_rights
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep, PublicError, key_project
from axonal_api.public_bodies import Camel, Paged, PageInfo
from axonal_events.api_keys import KeyProject
from axonal_events.prompts import (
    PRODUCTION,
    CreatePrompt,
    DeletePrompt,
    GetPrompt,
    ListPrompts,
    PromptMeta,
    PromptVersion,
    SetPromptLabels,
)
from axonal_events.rpcs import Registry
from axonal_traces.values import error_reason

__all__ = ["LangfusePrompt", "router"]

router = APIRouter(prefix="/api/public/v2/prompts", tags=["prompts"], responses=READ_RESPONSES)


def _invalid(exc: ValidationError) -> PublicError:
    return PublicError(400, error_reason(exc), "InvalidRequestError")


class _Body(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


class CreatePromptBody(_Body):
    """Langfuse's ``CreateTextPromptRequest`` or ``CreateChatPromptRequest``."""

    name: str
    type: Literal["text", "chat"] | None = None
    prompt: str | list[dict[str, Any]]
    config: dict[str, Any] | None = None
    labels: list[str] | None = None
    tags: list[str] | None = None
    commit_message: str | None = None


class UpdateLabelsBody(_Body):
    new_labels: list[str]


class LangfusePrompt(Camel):
    """Langfuse's ``Prompt``: a text or chat prompt version."""

    id: str
    project_id: str
    name: str
    version: int
    type: Literal["text", "chat"]
    prompt: Any
    config: dict[str, Any]
    labels: list[str]
    tags: list[str]
    commit_message: str | None = None
    created_by: str
    created_at: datetime
    updated_at: datetime
    resolution_graph: dict[str, Any] | None = None
    is_active: bool = Field(description="Whether the version is labelled production.")

    @classmethod
    def of(cls, found: PromptVersion) -> LangfusePrompt:
        return cls(
            **found.model_dump(exclude={"created_by"}),
            created_by=found.created_by or "API",
            is_active=PRODUCTION in found.labels,
        )


class LangfusePromptMeta(Camel):
    """Langfuse's ``PromptMeta``."""

    name: str
    type: Literal["text", "chat"]
    versions: list[int]
    labels: list[str]
    tags: list[str]
    last_updated_at: datetime
    last_config: dict[str, Any]

    @classmethod
    def of(cls, meta: PromptMeta) -> LangfusePromptMeta:
        return cls.model_validate(meta.model_dump())


def _project(key: KeyProject) -> str:
    return f"{key.owner}/{key.name}"


@router.post("", status_code=201, summary="Create the next version of a prompt")
async def create_prompt(
    request: Request,
    gw: GatewayDep,
    cache: PromptCacheDep,
    project: KeyProjectDep,
    body: CreatePromptBody,
) -> LangfusePrompt:
    await check_label_rights(request, gw, _project(project), project.id, body.labels or [])
    try:
        create = CreatePrompt(
            project_id=project.id,
            project=_project(project),
            name=body.name,
            type=body.type or "text",
            prompt=body.prompt,
            config=body.config or {},
            labels=body.labels or [],
            tags=body.tags,
            commit_message=body.commit_message,
            created_by="API",
        )
    except ValidationError as exc:
        raise _invalid(exc) from None
    created = await gw.call(Registry.create_prompt, create)
    cache.drop(project.id)
    return LangfusePrompt.of(created)


@router.get("", summary="Prompt names with their versions and labels, filtered")
async def list_prompts(
    gw: GatewayDep,
    project: KeyProjectDep,
    name: str | None = None,
    label: str | None = None,
    tag: str | None = None,
    version: Annotated[int | None, Query(ge=1)] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=100)] = 10,
    from_updated_at: Annotated[datetime | None, Query(alias="fromUpdatedAt")] = None,
    to_updated_at: Annotated[datetime | None, Query(alias="toUpdatedAt")] = None,
) -> Paged[LangfusePromptMeta]:
    query = ListPrompts(
        project_id=project.id,
        name=name,
        label=label,
        tag=tag,
        version=version,
        page=page,
        limit=limit,
        from_updated_at=from_updated_at,
        to_updated_at=to_updated_at,
    )
    found = await gw.call(Registry.list_prompts, query)
    data = [LangfusePromptMeta.of(m) for m in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.patch("/{prompt_name:path}/versions/{version}", summary="Add labels to a version")
async def update_labels(
    request: Request,
    gw: GatewayDep,
    cache: PromptCacheDep,
    project: KeyProjectDep,
    prompt_name: str,
    version: int,
    body: UpdateLabelsBody,
) -> LangfusePrompt:
    await check_label_rights(request, gw, _project(project), project.id, body.new_labels)
    try:
        labelled = SetPromptLabels(
            project_id=project.id,
            project=_project(project),
            name=prompt_name,
            version=version,
            new_labels=body.new_labels,
        )
    except ValidationError as exc:
        raise _invalid(exc) from None
    updated = await gw.call(Registry.set_prompt_labels, labelled)
    cache.drop(project.id)
    return LangfusePrompt.of(updated)


_CAMEL = {
    "project_id": "projectId",
    "commit_message": "commitMessage",
    "created_by": "createdBy",
    "created_at": "createdAt",
    "updated_at": "updatedAt",
    "resolution_graph": "resolutionGraph",
}


def _as_langfuse(raw: bytes) -> bytes:
    """The registry's JSON of a version as Langfuse's ``Prompt`` (:class:`LangfusePrompt`),
    renamed without building models: this read sits on applications' request path."""
    found = msgspec.json.decode(raw)
    body = {_CAMEL.get(key, key): value for key, value in found.items()}
    body["createdBy"] = body["createdBy"] or "API"
    body["isActive"] = PRODUCTION in body["labels"]
    return msgspec.json.encode(body)


class PromptQuery(BaseModel):
    """The query of a prompt read (``resolve=false``: the text with its references as written)."""

    version: int | None = None
    label: str | None = None
    resolve: bool = True


def _query_parameters() -> list[dict[str, Any]]:
    """The read's parameters for the OpenAPI document (its handler reads them itself)."""
    schema = PromptQuery.model_json_schema()["properties"]
    path = {"name": "prompt_name", "in": "path", "required": True, "schema": {"type": "string"}}
    query = [{"name": name, "in": "query", "schema": schema[name]} for name in schema]
    return [path, *query]


@router.get(
    "/{prompt_name:path}",
    response_model=LangfusePrompt,
    summary="A version by number or label (production)",
    openapi_extra={"parameters": _query_parameters()},
)
async def get_prompt(request: Request) -> Response:
    """On applications' request path, so a kept read costs as little as can be: no FastAPI
    dependency or parameter (each costs more than the rest of the read); the key's project,
    the query, the cache and the gateway are read here."""
    project = await key_project(request)
    name: str = request.path_params["prompt_name"]
    try:
        query = PromptQuery.model_validate(request.query_params)
    except ValidationError as exc:
        raise _invalid(exc) from None
    cache: PromptCache = request.app.state.prompt_cache
    key = f"{name}\x00{query.version}\x00{query.label}\x00{query.resolve}"
    kept = cache.get(project.id, key)
    if kept is not None:
        return Response(kept, media_type="application/json")
    try:
        asked = GetPrompt(project_id=project.id, name=name, **query.model_dump())
    except ValidationError as exc:
        raise _invalid(exc) from None
    epoch = cache.epoch(project.id)
    body = _as_langfuse(await gateway_of(request).call_json(Registry.get_prompt, asked))
    cache.put(project.id, key, body, epoch)
    return Response(body, media_type="application/json")


@router.delete("/{prompt_name:path}", status_code=204, summary="Delete versions of a prompt")
async def delete_prompt(
    http: Request,
    gw: GatewayDep,
    cache: PromptCacheDep,
    project: KeyProjectDep,
    prompt_name: str,
    version: int | None = None,
    label: str | None = None,
) -> Response:
    try:
        request = DeletePrompt(
            project_id=project.id,
            project=_project(project),
            name=prompt_name,
            version=version,
            label=label,
        )
    except ValidationError as exc:
        raise _invalid(exc) from None
    await check_deletion_rights(http, gw, request)
    await gw.call(Registry.delete_prompt, request)
    cache.drop(project.id)
    return Response(status_code=204)
