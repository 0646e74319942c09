"""Request/reply: metric series (downsampled in SQL) and latest values."""

from __future__ import annotations

from axonal_bus.service import ServiceContext
from axonal_events.metrics import LatestMetrics, ReadLatest, ReadSeries, SeriesList
from axonal_tracking import store

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    async def series(request: ReadSeries) -> SeriesList:
        async with ctx.pool.acquire() as conn:
            found = await store.series(conn, request.run_uuids, request.names, request.points)
        return SeriesList(series=found)

    async def latest(request: ReadLatest) -> LatestMetrics:
        async with ctx.pool.acquire() as conn:
            return LatestMetrics(values=await store.latest(conn, request.run_uuids))

    ctx.serve_rpc("series", ReadSeries, series)
    ctx.serve_rpc("latest", ReadLatest, latest)
