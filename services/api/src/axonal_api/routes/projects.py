"""``/api/v1/projects``: create and list, answered by the identity service."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, SLUG
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/projects", tags=["projects"], responses=ERRORS)


@router.post("", status_code=201, summary="Create a project")
async def create_project(gw: GatewayDep, body: CreateProjectRequest) -> Project:
    return await gw.call(Identity.create_project, body)


@router.get("", summary="List projects")
async def list_projects(
    gw: GatewayDep, owner: Annotated[str | None, Query(pattern=SLUG)] = None
) -> ProjectList:
    return await gw.call(Identity.list_projects, ListProjectsRequest(owner=owner))
