"""What the optimization service reads of trials from tracking: the last logged value of
each metric, and a metric's values by step (downsampled: no work on the ingest path)."""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_events.metrics import ReadLatest, ReadSeries
from axonal_events.rpcs import Tracking
from axonal_optimization.context import Context

__all__ = ["intermediate_values", "latest_values"]

_RUNS_PER_READ = 100  # the series RPC's limit


async def latest_values(
    ctx: Context, run_uuid: str, metric: str | None = None, *, wait: float = 0.0
) -> dict[str, Any]:
    """The run's last logged metric values (none when tracking cannot say now). With
    ``metric`` and ``wait``, read again for up to ``wait`` seconds until ``metric`` is there:
    a run can end before tracking has stored its last points."""
    deadline = time.monotonic() + wait
    pause = 0.1
    while True:
        request = ReadLatest(run_uuids=[run_uuid])
        try:
            found = await rpc.call(core(ctx.broker), ctx.subjects, Tracking.latest, request)
            values = dict(found.values.get(run_uuid, {}))
        except RemoteError:
            values = {}
        if metric is None or metric in values or time.monotonic() + pause > deadline:
            return values
        await asyncio.sleep(pause)
        pause = min(pause * 2, 1.0)


async def intermediate_values(
    ctx: Context, metric: str, run_uuids: list[str]
) -> dict[str, dict[int, float]]:
    """Each run's finite values of ``metric`` by step (downsampled to 1,000 points a run)."""
    found: dict[str, dict[int, float]] = {}
    for start in range(0, len(run_uuids), _RUNS_PER_READ):
        chunk = run_uuids[start : start + _RUNS_PER_READ]
        request = ReadSeries(run_uuids=chunk, names=[metric], points=1000)
        series = await rpc.call(core(ctx.broker), ctx.subjects, Tracking.series, request)
        for one in series.series:
            values = {p.step: float(p.value) for p in one.points if _finite(p.value)}
            found[one.run_uuid] = values
    return found


def _finite(value: object) -> bool:
    return isinstance(value, int | float) and math.isfinite(value)
