"""Request/reply: create, list and delete projects; read and set their retention."""

from __future__ import annotations

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_bus.outbox import enqueue
from axonal_db import transaction
from axonal_events import new_event
from axonal_events.catalog import ProjectDeleted, ProjectRetentionChanged
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_events.retention import (
    DeleteProjectRequest,
    DeletionAccepted,
    ProjectRef,
    ProjectRetention,
    SetRetentionRequest,
)
from axonal_events.rpcs import Identity
from axonal_identity.context import Context
from axonal_identity.domain.projects import InvalidProjectError, new_project
from axonal_identity.projects import store

__all__ = [
    "create_project",
    "delete_project",
    "get_retention",
    "list_projects",
    "register",
    "set_retention",
]


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


async def delete_project(ctx: Context, request: DeleteProjectRequest) -> DeletionAccepted:
    """Delete the project and its keys, and emit ``project.deleted`` in the same transaction:
    every service deletes its data and confirms with ``deletion.completed``."""
    slug = f"{request.owner}/{request.name}"
    async with transaction(ctx.pool) as conn:
        project_id = await store.delete_project(conn, request.owner, request.name)
        if project_id is None:
            raise NotFound(f"project {slug} does not exist")
        deleted = ProjectDeleted(project_id=project_id, owner=request.owner, name=request.name)
        event = new_event(deleted, source=ctx.source, project=slug)
        await enqueue(conn, ctx.subjects, event)
    return DeletionAccepted(scope="project", target=project_id, request_id=event.id)


async def get_retention(ctx: Context, request: ProjectRef) -> ProjectRetention:
    async with ctx.pool.acquire() as conn:
        found = await store.retention(conn, request.owner, request.name)
    if found is None:
        raise NotFound(f"project {request.owner}/{request.name} does not exist")
    return found


async def set_retention(ctx: Context, request: SetRetentionRequest) -> ProjectRetention:
    """Set the retention and emit ``project.retention.changed`` in the same transaction."""
    slug = f"{request.owner}/{request.name}"
    async with transaction(ctx.pool) as conn:
        found = await store.set_retention(conn, request.owner, request.name, request.retention)
        if found is None:
            raise NotFound(f"project {slug} does not exist")
        changed = ProjectRetentionChanged(
            project_id=found.project_id,
            owner=found.owner,
            name=found.name,
            retention=found.retention,
        )
        await enqueue(conn, ctx.subjects, new_event(changed, source=ctx.source, project=slug))
    return found


def register(ctx: Context) -> None:
    ctx.serve(Identity.create_project, create_project)
    ctx.serve(Identity.list_projects, list_projects)
    ctx.serve(Identity.delete_project, delete_project)
    ctx.serve(Identity.get_retention, get_retention)
    ctx.serve(Identity.set_retention, set_retention)
