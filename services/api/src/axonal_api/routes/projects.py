"""``/api/v1/projects``: create, list and delete; a project's retention. Answered by the
identity service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, SLUG, Owner, Project
from axonal_events import identity
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, ProjectList
from axonal_events.retention import (
    DeleteProjectRequest,
    DeletionAccepted,
    ProjectRef,
    ProjectRetention,
    RetentionPolicy,
    SetRetentionRequest,
)
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/projects", tags=["projects"], responses=ERRORS)


@router.post("", status_code=201, summary="Create a project")
async def create_project(gw: GatewayDep, body: CreateProjectRequest) -> identity.Project:
    return await gw.call(Identity.create_project, body)


@router.get("", summary="List projects")
async def list_projects(
    gw: GatewayDep, owner: Annotated[str | None, Query(pattern=SLUG)] = None
) -> ProjectList:
    return await gw.call(Identity.list_projects, ListProjectsRequest(owner=owner))


@router.delete("/{owner}/{project}", status_code=202, summary="Delete a project and its data")
async def delete_project(gw: GatewayDep, owner: Owner, project: Project) -> DeletionAccepted:
    """The project goes at once; every service then deletes what it holds of it and confirms
    with ``deletion.completed`` (``request_id`` names the deletion)."""
    return await gw.call(Identity.delete_project, DeleteProjectRequest(owner=owner, name=project))


@router.get("/{owner}/{project}/retention", summary="A project's retention")
async def get_retention(gw: GatewayDep, owner: Owner, project: Project) -> ProjectRetention:
    return await gw.call(Identity.get_retention, ProjectRef(owner=owner, name=project))


@router.put("/{owner}/{project}/retention", summary="Set a project's retention")
async def set_retention(
    gw: GatewayDep, owner: Owner, project: Project, body: RetentionPolicy
) -> ProjectRetention:
    """Days each kind of data is kept (a kind left out: for ever); the services owning the
    data apply it on their next pass."""
    request = SetRetentionRequest(owner=owner, name=project, retention=body)
    return await gw.call(Identity.set_retention, request)
