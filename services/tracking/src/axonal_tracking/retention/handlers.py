"""Consumers of deletions (durable ``tracking-deletions``) and of retention changes
(``tracking-retention``), and the scheduled retention passes."""

from __future__ import annotations

from datetime import datetime
from functools import partial
from typing import Literal

from axonal_bus.deletion import Purges, consume_deletions
from axonal_bus.retention import Expiry, Kept, keep_retention
from axonal_db import Connection
from axonal_events.catalog import ProjectDeleted, RunDeleted, TraceDeleted
from axonal_tracking.context import Context
from axonal_tracking.retention import pruning, store

__all__ = ["expiries", "register"]


def expiries(ctx: Context) -> list[Expiry]:
    """What the tracking service expires, kind by kind."""

    def rows(table: Literal["traces", "observations", "scores"]) -> Expiry:
        async def expire(conn: Connection, project: Kept, cutoff: datetime, limit: int) -> int:
            return await store.expire_rows(conn, table, project.project_id, cutoff, limit)

        return Expiry(table, expire)  # each table is the kind it holds

    async def metrics(conn: Connection, project: Kept, cutoff: datetime, limit: int) -> int:
        return await store.expire_metrics(conn, project.slug, cutoff, limit)

    async def artifacts(conn: Connection, project: Kept, cutoff: datetime, limit: int) -> int:
        return await pruning.expire_artifacts(conn, ctx.artifacts, project.slug, cutoff, limit)

    return [
        rows("traces"),
        rows("observations"),
        rows("scores"),
        Expiry("metrics", metrics),
        Expiry("artifacts", artifacts),
    ]


async def purge_project(ctx: Context, conn: Connection, project: ProjectDeleted) -> int:
    slug = f"{project.owner}/{project.name}"
    return await pruning.delete_project(conn, ctx.artifacts, slug, project.project_id)


async def purge_trace(ctx: Context, conn: Connection, trace: TraceDeleted) -> int:
    return await store.delete_trace(conn, trace.project_id, trace.trace_id)


async def purge_run(ctx: Context, conn: Connection, run: RunDeleted) -> int:
    slug = f"{run.owner}/{run.project}"
    return await pruning.delete_run(conn, ctx.artifacts, slug, run.run_uuid)


def register(ctx: Context) -> None:
    purges = Purges(
        project=partial(purge_project, ctx),
        trace=partial(purge_trace, ctx),
        run=partial(purge_run, ctx),
    )
    consume_deletions(ctx, purges)
    every, batch = ctx.settings.retention_every, ctx.settings.retention_batch
    keep_retention(ctx, expiries(ctx), every=every, batch=batch)
