"""Request/reply: metric series (downsampled in SQL) and latest values."""

from __future__ import annotations

from axonal_events.metrics import LatestMetrics, ReadLatest, ReadSeries, SeriesList
from axonal_events.rpcs import Tracking
from axonal_tracking.context import Context
from axonal_tracking.metrics import store

__all__ = ["latest", "register", "series"]


async def series(ctx: Context, request: ReadSeries) -> SeriesList:
    async with ctx.pool.acquire() as conn:
        found = await store.series(
            conn,
            request.run_uuids,
            request.names,
            request.points,
            request.first_step,
            request.last_step,
        )
    return SeriesList(series=found)


async def latest(ctx: Context, request: ReadLatest) -> LatestMetrics:
    async with ctx.pool.acquire() as conn:
        return LatestMetrics(values=await store.latest(conn, request.run_uuids))


def register(ctx: Context) -> None:
    ctx.serve(Tracking.series, series)
    ctx.serve(Tracking.latest, latest)
