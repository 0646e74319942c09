"""Consumer of ``project.deleted`` and ``run.deleted`` (durable ``registry-deletions``)."""

from __future__ import annotations

from axonal_bus.deletion import Purges, consume_deletions
from axonal_db import Connection
from axonal_events.catalog import ProjectDeleted, RunDeleted
from axonal_registry.context import Context
from axonal_registry.deletion import store

__all__ = ["purge_project", "purge_run", "register"]


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    slug = f"{project.owner}/{project.name}"
    return await store.delete_project(conn, slug, project.project_id)


async def purge_run(conn: Connection, run: RunDeleted) -> int:
    return await store.delete_run(conn, run.run_uuid)


def register(ctx: Context) -> None:
    consume_deletions(ctx, Purges(project=purge_project, run=purge_run))
