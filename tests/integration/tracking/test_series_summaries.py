"""Long series read from their summaries: the same buckets as the points give, also after
points land late in buckets already summarised, or past the summaries."""

from __future__ import annotations

import json
import math
import random
from datetime import UTC, datetime

from axonal_bus import rpc
from axonal_db import connect
from axonal_events.metrics import ReadSeries, SeriesPoint
from axonal_events.rpcs import Tracking
from axonal_testing.waiting import wait_for

from .conftest import create_run, send

AT = datetime(2026, 12, 1, tzinfo=UTC).isoformat()


def payload(run_uuid: str, values: dict[int, float]) -> bytes:
    points = [{"name": "loss", "step": s, "value": v, "at": AT} for s, v in values.items()]
    return json.dumps({"run_uuid": run_uuid, "points": points}).encode().replace(b"NaN", b'"NaN"')


def expected(values: dict[int, float], width: int) -> list[tuple[int, float, float, float, int]]:
    """Buckets of ``step // width`` computed from the points: last step and its value, min and
    max leaving NaN out (NaN when the whole bucket is), NaN count."""
    buckets: dict[int, list[int]] = {}
    for step in sorted(values):
        buckets.setdefault(step // width, []).append(step)
    out = []
    for steps in buckets.values():
        numbers = [values[s] for s in steps if not math.isnan(values[s])]
        lo, hi = (min(numbers), max(numbers)) if numbers else (math.nan, math.nan)
        out.append((steps[-1], values[steps[-1]], lo, hi, len(steps) - len(numbers)))
    return out


def shape(points: list[SeriesPoint]) -> list[tuple[int, float, float, float, int]]:
    return [(p.step, p.value, p.min, p.max, p.nans) for p in points]


def same(got: list[tuple], want: list[tuple]) -> bool:
    def equal(a: object, b: object) -> bool:
        return a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)

    return len(got) == len(want) and all(
        all(equal(x, y) for x, y in zip(g, w, strict=True)) for g, w in zip(got, want, strict=True)
    )


async def marks(database_url: str, run_uuid: str) -> int | None:
    conn = await connect(database_url)
    try:
        return await conn.fetchval(
            "SELECT upto FROM tracking.metric_rollup_marks WHERE run_uuid = $1", run_uuid
        )
    finally:
        await conn.close()


async def test_summaries_give_the_buckets_of_the_points_through_late_and_new_points(
    tracking, nats_client, database_url
):
    js, subjects = nats_client.jetstream(), tracking.subjects
    run_uuid = await create_run(js, subjects)
    rng = random.Random(7)
    # 30,000 steps but every 997th missing (to be logged late), a few NaN among them
    values = {
        s: (math.nan if rng.random() < 0.01 else rng.uniform(-1, 1))
        for s in range(30_000)
        if s % 997
    }
    steps = sorted(values)
    for at in range(0, len(steps), 5000):
        await send(
            js, subjects, run_uuid, payload(run_uuid, {s: values[s] for s in steps[at : at + 5000]})
        )

    async def read() -> list[SeriesPoint]:
        request = ReadSeries(run_uuids=[run_uuid], points=100)
        found = await rpc.call(nats_client, subjects, Tracking.series, request)
        return found.series[0].points if found.series else []

    async def reads_as(values: dict[int, float], width: int = 300) -> bool:
        """30,000 steps are read in 100 buckets of 300 steps."""
        return same(shape(await read()), expected(values, width))

    async def summarised_as(values: dict[int, float]) -> bool:
        """Read right and summarised to the end: a batch committed between a read's summary
        and its query moves the mark back (the read is still right), the next read summarises."""
        return await reads_as(values) and await marks(database_url, run_uuid) == 300

    # every whole bucket of 100 steps
    await wait_for(lambda: summarised_as(values), message="the summarised series")

    late = {s: rng.uniform(5, 6) for s in range(0, 30_000, 997)}  # the highest max of each
    await send(js, subjects, run_uuid, payload(run_uuid, late))
    values |= late
    await wait_for(lambda: reads_as(values), message="the late points in their buckets")

    more = {s: math.nan if s % 2 else -9.0 for s in range(30_000, 30_150)}  # past the summaries
    await send(js, subjects, run_uuid, payload(run_uuid, more))
    values |= more
    # 30,150 steps: buckets of 400 steps now (at most 100 of them)
    await wait_for(lambda: reads_as(values, 400), message="the new points past the summaries")
