"""``/api/v1/{owner}/{project}/prompts``: prompts with the platform's auth (the CLI's, the UI's).

The registry RPCs the Langfuse-compatible ``/api/public/v2/prompts`` call, in Axonal's own
shapes, with what a prompt's page shows: every version, and the generations that used each.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field, ValidationError

from axonal_api.deps import GatewayDep, PromptCacheDep
from axonal_api.errors import ApiError
from axonal_api.protected_labels import check_label_rights
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events.prompts import (
    CreatePrompt,
    GetPrompt,
    GetPromptVersions,
    ListPrompts,
    PromptGenerationPage,
    PromptGenerations,
    PromptMetaPage,
    PromptVersion,
    PromptVersionList,
    ProtectedLabels,
    ProtectedLabelsOf,
    SetPromptLabels,
)
from axonal_events.rpcs import Registry, Tracking
from axonal_traces.values import error_reason

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}", tags=["prompts"], responses=ERRORS)

T = TypeVar("T")


class PromptTerms(BaseModel):
    """A new version: a text prompt (a string) or a chat prompt (messages and placeholders)."""

    name: str
    type: Literal["text", "chat"] = "text"
    prompt: str | list[dict[str, Any]]
    config: dict[str, Any] = Field(default_factory=dict)
    labels: list[str] = Field(default_factory=list)
    tags: list[str] | None = Field(default=None, description="None keeps the previous tags.")
    commit_message: str | None = None


class NewLabels(BaseModel):
    labels: list[str] = Field(description="Put on the version, taken from the others.")


class LabelList(BaseModel):
    labels: list[str]


def _valid(build: type[T], **fields: Any) -> T:
    try:
        return build(**fields)
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None


@router.get("/prompts", summary="Prompt names with their versions and labels")
async def list_prompts(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: str | None = None,
    label: str | None = None,
    tag: str | None = None,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=100)] = 50,
) -> PromptMetaPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListPrompts(
        project_id=project_id, name=name, label=label, tag=tag, page=page, limit=limit
    )
    return await gw.call(Registry.list_prompts, query)


@router.post("/prompts", status_code=201, summary="Create the next version of a prompt")
async def create_prompt(
    request: Request,
    gw: GatewayDep,
    cache: PromptCacheDep,
    owner: Owner,
    project: Project,
    terms: PromptTerms,
) -> PromptVersion:
    project_id = await project_id_of(gw, owner, project)
    await check_label_rights(request, gw, f"{owner}/{project}", project_id, terms.labels)
    create = _valid(
        CreatePrompt, project_id=project_id, project=f"{owner}/{project}", **terms.model_dump()
    )
    created = await gw.call(Registry.create_prompt, create)
    cache.drop(project_id)
    return created


@router.patch(
    "/prompts/{name:path}/versions/{version}", summary="Put labels on a version of a prompt"
)
async def set_labels(
    request: Request,
    gw: GatewayDep,
    cache: PromptCacheDep,
    owner: Owner,
    project: Project,
    name: str,
    version: int,
    body: NewLabels,
) -> PromptVersion:
    project_id = await project_id_of(gw, owner, project)
    await check_label_rights(request, gw, f"{owner}/{project}", project_id, body.labels)
    labelled = _valid(
        SetPromptLabels,
        project_id=project_id,
        project=f"{owner}/{project}",
        name=name,
        version=version,
        new_labels=body.labels,
    )
    updated = await gw.call(Registry.set_prompt_labels, labelled)
    cache.drop(project_id)
    return updated


@router.get("/prompts/{name:path}", summary="A version by number or label (production)")
async def get_prompt(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: str,
    version: Annotated[int | None, Query(ge=1)] = None,
    label: str | None = None,
    resolve: bool = True,
) -> PromptVersion:
    project_id = await project_id_of(gw, owner, project)
    request = _valid(
        GetPrompt, project_id=project_id, name=name, version=version, label=label, resolve=resolve
    )
    return await gw.call(Registry.get_prompt, request)


@router.get("/prompt-versions/{name:path}", summary="Every version of a prompt, newest first")
async def prompt_versions(
    gw: GatewayDep, owner: Owner, project: Project, name: str
) -> PromptVersionList:
    project_id = await project_id_of(gw, owner, project)
    query = GetPromptVersions(project_id=project_id, name=name)
    return await gw.call(Registry.prompt_versions, query)


@router.get(
    "/prompt-generations/{name:path}",
    summary="Generations that used a prompt, with latency, cost and scores",
)
async def prompt_generations(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: str,
    version: Annotated[int | None, Query(ge=1)] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=200)] = 50,
) -> PromptGenerationPage:
    project_id = await project_id_of(gw, owner, project)
    query = PromptGenerations(
        project_id=project_id, name=name, version=version, page=page, limit=limit
    )
    return await gw.call(Tracking.prompt_generations, query)


@router.get("/prompt-protected-labels", summary="Labels only project admins may move")
async def protected_labels(gw: GatewayDep, owner: Owner, project: Project) -> LabelList:
    project_id = await project_id_of(gw, owner, project)
    found = await gw.call(Registry.protected_labels, ProtectedLabelsOf(project_id=project_id))
    return LabelList(labels=found.labels)


@router.put("/prompt-protected-labels", summary="Replace the protected labels")
async def set_protected_labels(
    gw: GatewayDep, owner: Owner, project: Project, body: LabelList
) -> LabelList:
    project_id = await project_id_of(gw, owner, project)
    request = _valid(ProtectedLabels, project_id=project_id, labels=body.labels)
    found = await gw.call(Registry.set_protected_labels, request)
    return LabelList(labels=found.labels)
