"""Summaries of long series (``metric_rollups``, one row per 100 steps): written when a chart
first needs them, read instead of every point, and moved back by ingestion when points land
in buckets already summarised.

A series is summarised below its mark. Writing a summary takes the run's lock exclusively;
ingestion takes it shared before it moves marks back. So either the summary waits for a batch
in flight and sees its points, or the batch waits for the summary and moves its mark back.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from axonal_db import Connection
from axonal_tracking.domain.points import Batch
from axonal_tracking.domain.series import ROLLUP_STEPS

__all__ = ["reopen", "summarise", "summarised"]

#: Summarise once this many buckets wait (the rest is read point by point, cheaply).
_BATCH_BUCKETS = 10
_LOCK_SQL = "SELECT pg_advisory_xact_lock(hashtext('metric_rollups'), hashtext($1))"
_MARK_SQL = "SELECT upto FROM metric_rollup_marks WHERE run_uuid = $1 AND name = $2"
# The last step's value and time by primary key, once a bucket (see store._BUCKETS_SQL).
_SUMMARISE_SQL = f"""
INSERT INTO metric_rollups (run_uuid, name, bucket, step, value, at, lo, hi, n, nans)
SELECT $1, $2, b.bucket, b.step,
    (SELECT p.value FROM metric_points p WHERE p.run_uuid = $1 AND p.name = $2 AND p.step = b.step),
    (SELECT p.at FROM metric_points p WHERE p.run_uuid = $1 AND p.name = $2 AND p.step = b.step),
    b.lo, b.hi, b.n, b.nans
FROM (
    SELECT step / {ROLLUP_STEPS} AS bucket, max(step) AS step, min(nullif(value, 'NaN')) AS lo,
        max(nullif(value, 'NaN')) AS hi, count(*) AS n,
        count(*) FILTER (WHERE value = 'NaN') AS nans
    FROM metric_points
    WHERE run_uuid = $1 AND name = $2 AND step >= $3 * {ROLLUP_STEPS} AND step < $4 * {ROLLUP_STEPS}
    GROUP BY 1
) b
ON CONFLICT (run_uuid, name, bucket) DO UPDATE SET step = EXCLUDED.step, value = EXCLUDED.value,
    at = EXCLUDED.at, lo = EXCLUDED.lo, hi = EXCLUDED.hi, n = EXCLUDED.n, nans = EXCLUDED.nans
"""  # noqa: S608 - the only value formatted in is a constant
_SET_MARK_SQL = (
    "INSERT INTO metric_rollup_marks (run_uuid, name, upto) VALUES ($1, $2, $3) "
    "ON CONFLICT (run_uuid, name) DO UPDATE SET upto = EXCLUDED.upto"
)
# One statement, one snapshot: the mark and the rows it vouches for agree. Summaries below the
# mark and the points above it, in buckets of ``step / $3``, each with its last step's value
# and time, its min and max (NaN left out, NaN when the whole bucket is), size and NaN points.
_READ_SQL = f"""
WITH mark AS (
    SELECT coalesce((SELECT upto FROM metric_rollup_marks WHERE run_uuid = $1 AND name = $2), 0)
        AS upto
), parts AS (
    SELECT r.step, r.value, r.at, r.lo, r.hi, r.n, r.nans
    FROM metric_rollups r, mark WHERE r.run_uuid = $1 AND r.name = $2 AND r.bucket < mark.upto
    UNION ALL
    SELECT p.step, p.value, p.at, nullif(p.value, 'NaN'), nullif(p.value, 'NaN'), 1,
        (p.value = 'NaN')::int
    FROM metric_points p, mark
    WHERE p.run_uuid = $1 AND p.name = $2 AND p.step >= mark.upto * {ROLLUP_STEPS}
)
SELECT max(step) AS step, (array_agg(value ORDER BY step DESC))[1] AS value,
    (array_agg(at ORDER BY step DESC))[1] AS at, coalesce(min(lo), 'NaN') AS lo,
    coalesce(max(hi), 'NaN') AS hi, sum(n)::bigint AS n, sum(nans)::bigint AS nans
FROM parts GROUP BY step / $3::bigint ORDER BY 1
"""  # noqa: S608 - the only value formatted in is a constant


async def reopen(conn: Connection, batch: Batch) -> None:
    """Move back the marks of the batch's run above its lowest step (in the batch's
    transaction, after its points are in)."""
    first = min(point.step for point in batch.points)
    await conn.execute("SELECT metric_rollups_reopen($1, $2)", batch.run_uuid, first)


async def summarise(conn: Connection, run_uuid: str, name: str, last_step: int) -> None:
    """Summarise the series' whole buckets up to ``last_step`` not summarised yet, unless few
    are waiting."""
    upto = (last_step + 1) // ROLLUP_STEPS
    mark = await conn.fetchval(_MARK_SQL, run_uuid, name) or 0
    if upto - mark < _BATCH_BUCKETS:
        return
    async with conn.transaction():
        await conn.execute(_LOCK_SQL, run_uuid)
        mark = await conn.fetchval(_MARK_SQL, run_uuid, name) or 0  # under the lock
        if mark >= upto:
            return
        await conn.execute(_SUMMARISE_SQL, run_uuid, name, mark, upto)
        await conn.execute(_SET_MARK_SQL, run_uuid, name, upto)


async def summarised(conn: Connection, run_uuid: str, name: str, width: int) -> Sequence[Any]:
    """The series in buckets of ``step // width`` (a multiple of the summaries' 100 steps),
    read from its summaries and the points past them."""
    return await conn.fetch(_READ_SQL, run_uuid, name, width)
