"""Request/reply: create and list projects."""

from __future__ import annotations

from axonal_bus.errors import Conflict, Invalid
from axonal_bus.outbox import enqueue
from axonal_db import transaction
from axonal_events import new_event
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_events.rpcs import Identity
from axonal_identity.context import Context
from axonal_identity.domain.projects import InvalidProjectError, new_project
from axonal_identity.projects import store

__all__ = ["create_project", "list_projects", "register"]


async def create_project(ctx: Context, request: CreateProjectRequest) -> Project:
    """Create the project and emit ``project.created`` in the same transaction."""
    try:
        created = new_project(request)
    except InvalidProjectError as exc:
        raise Invalid(str(exc)) from None
    async with transaction(ctx.pool) as conn:
        project = await store.insert_project(conn, created)
        if project is None:
            raise Conflict(f"project {request.owner}/{request.name} already exists")
        if request.creator is not None:
            await store.found_organization(conn, created.owner, request.creator)
        event = new_event(created, source=ctx.source, project=f"{created.owner}/{created.name}")
        await enqueue(conn, ctx.subjects, event)
    return project


async def list_projects(ctx: Context, request: ListProjectsRequest) -> ProjectList:
    async with ctx.pool.acquire() as conn:
        return ProjectList(projects=await store.list_projects(conn, request.owner))


def register(ctx: Context) -> None:
    ctx.serve(Identity.create_project, create_project)
    ctx.serve(Identity.list_projects, list_projects)
