"""What the optimization service reads of trials from tracking: the last logged value of
each metric, and a metric's values by step (downsampled: no work on the ingest path)."""

from __future__ import annotations

import math
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_events.metrics import ReadLatest, ReadSeries
from axonal_events.rpcs import Tracking
from axonal_optimization.context import Context

__all__ = ["intermediate_values", "latest_values"]

_RUNS_PER_READ = 100  # the series RPC's limit


async def latest_values(ctx: Context, run_uuid: str) -> dict[str, Any]:
    """The run's last logged metric values (none when tracking cannot say now)."""
    request = ReadLatest(run_uuids=[run_uuid])
    try:
        found = await rpc.call(core(ctx.broker), ctx.subjects, Tracking.latest, request)
    except RemoteError:
        return {}
    return dict(found.values.get(run_uuid, {}))


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
