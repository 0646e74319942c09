"""Request/reply handlers: create and list projects."""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.outbox import enqueue
from axonal_bus.service import ServiceContext
from axonal_db import transaction
from axonal_events import new_event
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_identity import store
from axonal_identity.domain.projects import InvalidProjectError, new_project

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    source = f"/axonal/{ctx.name}"

    async def create_project(request: CreateProjectRequest) -> Project:
        try:
            created = new_project(request)
        except InvalidProjectError as exc:
            raise Permanent(str(exc)) from None
        async with transaction(ctx.pool) as conn:
            project = await store.insert_project(conn, created)
            if project is None:
                raise Permanent(f"project {request.owner}/{request.name} already exists")
            event = new_event(created, source=source, project=f"{created.owner}/{created.name}")
            await enqueue(conn, ctx.subjects, event)
        return project

    async def list_projects(request: ListProjectsRequest) -> ProjectList:
        async with ctx.pool.acquire() as conn:
            return ProjectList(projects=await store.list_projects(conn, request.owner))

    ctx.serve_rpc("create_project", CreateProjectRequest, create_project)
    ctx.serve_rpc("list_projects", ListProjectsRequest, list_projects)
