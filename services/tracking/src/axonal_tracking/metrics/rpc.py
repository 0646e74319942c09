"""Request/reply: metric series (downsampled in SQL) and latest values."""

from __future__ import annotations

import asyncio

from axonal_events.metrics import (
    LatestMetrics,
    MetricSeries,
    ReadLatest,
    ReadSeries,
    SeriesList,
)
from axonal_events.rpcs import Tracking
from axonal_tracking.context import Context
from axonal_tracking.metrics import store

__all__ = ["latest", "register", "series"]


async def series(ctx: Context, request: ReadSeries) -> SeriesList:
    """Every asked series, each read on a connection of its own, side by side: a page of
    charts waits for the slowest series, not for their sum."""
    wanted = [(run, name) for run in request.run_uuids for name in request.names]
    if not request.names:
        async with ctx.pool.acquire() as conn:
            for run in request.run_uuids:
                wanted += [(run, name) for name in await store.names(conn, run)]

    async def read(run: str, name: str) -> MetricSeries | None:
        async with ctx.pool.acquire() as conn:
            return await store.series(
                conn, run, name, request.points, request.first_step, request.last_step
            )

    found = await asyncio.gather(*(read(run, name) for run, name in wanted))
    return SeriesList(series=[s for s in found if s is not None])


async def latest(ctx: Context, request: ReadLatest) -> LatestMetrics:
    async with ctx.pool.acquire() as conn:
        return LatestMetrics(values=await store.latest(conn, request.run_uuids))


def register(ctx: Context) -> None:
    ctx.serve(Tracking.series, series)
    ctx.serve(Tracking.latest, latest)
