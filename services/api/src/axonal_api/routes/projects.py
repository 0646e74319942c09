"""``/api/v1/projects``: create, list and delete; a project's retention. Answered by the
identity service.

Anyone signed in may found a new organization by creating its first project (and becomes its
owner); in an existing organization it takes an ``admin``. The list holds the projects the
caller may see.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query, Request
from pydantic import BaseModel, Field

from axonal_api.access import CallerDep
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.runs import ERRORS, SLUG, Owner, Project
from axonal_events import identity
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, ProjectList
from axonal_events.principals import Role
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


class NewProject(BaseModel):
    owner: str = Field(min_length=1, max_length=64, description="Organisation slug.")
    name: str = Field(min_length=1, max_length=64, description="Project slug, unique per owner.")
    description: str | None = Field(default=None, max_length=2000)


@router.post("", status_code=201, summary="Create a project")
async def create_project(
    request: Request, gw: GatewayDep, who: CallerDep, body: NewProject
) -> identity.Project:
    request.state.audited_project = f"{body.owner}/{body.name}"  # not in the path
    if who.role_in_org(body.owner) < Role.ADMIN:
        existing = await gw.call(Identity.list_projects, ListProjectsRequest(owner=body.owner))
        if existing.projects or who.principal is None:
            raise ApiError(
                403,
                "forbidden",
                f"{who.name} is not an admin of organization {body.owner}; "
                "an admin creates its projects",
            )
    creator = who.principal.name if who.principal and not who.superuser else None
    made = CreateProjectRequest(**body.model_dump(), creator=creator)
    return await gw.call(Identity.create_project, made)


@router.get("", summary="List the projects the caller may see")
async def list_projects(
    gw: GatewayDep, who: CallerDep, owner: Annotated[str | None, Query(pattern=SLUG)] = None
) -> ProjectList:
    found = await gw.call(Identity.list_projects, ListProjectsRequest(owner=owner))
    visible = [p for p in found.projects if who.role_in(f"{p.owner}/{p.name}") >= Role.VIEWER]
    return ProjectList(projects=visible)


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
