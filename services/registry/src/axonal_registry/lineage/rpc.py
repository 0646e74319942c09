"""Request/reply: the lineage graph of a model version."""

from __future__ import annotations

from axonal_events.model_registry import LineageGraph, ReadModelLineage
from axonal_events.rpcs import Registry
from axonal_registry.context import Context
from axonal_registry.lineage.graph import upstream

__all__ = ["lineage", "register"]


async def lineage(ctx: Context, request: ReadModelLineage) -> LineageGraph:
    async with ctx.pool.acquire() as conn:
        return await upstream(conn, request)


def register(ctx: Context) -> None:
    ctx.serve(Registry.lineage, lineage)
