"""Request/reply: a run's artifacts, and its lineage (the runs that produced what it read and
read what it produced)."""

from __future__ import annotations

from axonal_events.artifacts import ArtifactList, Lineage, ListArtifacts, ReadLineage
from axonal_events.rpcs import Tracking
from axonal_tracking.artifacts import store
from axonal_tracking.context import Context

__all__ = ["lineage", "list_artifacts", "register"]


async def list_artifacts(ctx: Context, request: ListArtifacts) -> ArtifactList:
    async with ctx.pool.acquire() as conn:
        return ArtifactList(artifacts=await store.list_for(conn, request.run_uuid))


async def lineage(ctx: Context, request: ReadLineage) -> Lineage:
    async with ctx.pool.acquire() as conn:
        return await store.lineage(conn, request.run_uuid)


def register(ctx: Context) -> None:
    ctx.serve(Tracking.list_artifacts, list_artifacts)
    ctx.serve(Tracking.lineage, lineage)
