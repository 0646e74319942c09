"""Consumers of ``project.deleted`` and ``run.deleted`` (durable ``scheduler-deletions``) and
of retention changes (``scheduler-retention``); the passes that expire log lines."""

from __future__ import annotations

from datetime import datetime

from axonal_bus.deletion import Purges, consume_deletions
from axonal_bus.retention import Expiry, Kept, keep_retention
from axonal_db import Connection
from axonal_events.catalog import ProjectDeleted, RunDeleted
from axonal_scheduler.context import Context
from axonal_scheduler.deletion import store

__all__ = ["LOGS", "expire_logs", "purge_project", "purge_run", "register"]


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    return await store.delete_project(conn, project.owner, project.name)


async def purge_run(conn: Connection, run: RunDeleted) -> int:
    return await store.delete_run(conn, run.run_uuid)


async def expire_logs(conn: Connection, project: Kept, cutoff: datetime, limit: int) -> int:
    return await store.expire_logs(conn, project.owner, project.name, cutoff, limit)


LOGS = Expiry("logs", expire_logs)


def register(ctx: Context) -> None:
    consume_deletions(ctx, Purges(project=purge_project, run=purge_run))
    every, batch = ctx.settings.retention_every, ctx.settings.retention_batch
    keep_retention(ctx, [LOGS], every=every, batch=batch)
