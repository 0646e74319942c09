"""Consumer of ``project.deleted`` (durable ``optimization-deletions``)."""

from __future__ import annotations

from axonal_bus.deletion import Purges, consume_deletions
from axonal_db import Connection
from axonal_events.catalog import ProjectDeleted
from axonal_optimization.context import Context
from axonal_optimization.deletion import store

__all__ = ["purge_project", "register"]


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    return await store.delete_project(conn, project.owner, project.name)


def register(ctx: Context) -> None:
    consume_deletions(ctx, Purges(project=purge_project))
