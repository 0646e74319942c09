"""Consumer of ``project.deleted`` and ``trace.deleted`` (durable ``evaluation-deletions``)."""

from __future__ import annotations

from axonal_bus.deletion import Purges, consume_deletions
from axonal_db import Connection
from axonal_evaluation.context import Context
from axonal_evaluation.deletion import store
from axonal_events.catalog import ProjectDeleted, TraceDeleted

__all__ = ["purge_project", "purge_trace", "register"]


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    return await store.delete_project(conn, project.project_id)


async def purge_trace(conn: Connection, trace: TraceDeleted) -> int:
    return await store.delete_trace(conn, trace.project_id, trace.trace_id)


def register(ctx: Context) -> None:
    consume_deletions(ctx, Purges(project=purge_project, trace=purge_trace))
