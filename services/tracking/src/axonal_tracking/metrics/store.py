"""SQL of the ``runs`` (heard of) and ``metric_points`` tables: insert, series, latest values."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from axonal_db import Connection
from axonal_events.metrics import MetricSeries, SeriesPoint
from axonal_tracking.domain.points import Batch
from axonal_tracking.domain.runs import KnownRun
from axonal_tracking.domain.series import Window, summary_width, window
from axonal_tracking.metrics import rollups

__all__ = ["copy_points", "insert_new_points", "known_run", "latest", "record_run", "series"]


async def record_run(conn: Connection, run: KnownRun) -> None:
    await conn.execute(
        "INSERT INTO runs (uuid, project, tags) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        run.uuid,
        run.project,
        run.tags,
    )


async def known_run(conn: Connection, uuid: str) -> KnownRun | None:
    """A run heard of, ``None`` for another run."""
    row = await conn.fetchrow("SELECT project, tags FROM runs WHERE uuid = $1", uuid)
    return None if row is None else KnownRun(uuid, row["project"], list(row["tags"]))


async def copy_points(conn: Connection, batch: Batch) -> None:
    """Store a batch with one COPY, the fast path; :class:`asyncpg.UniqueViolationError` when
    one of its points is stored already (the transaction is then aborted)."""
    run = batch.run_uuid
    await conn.copy_records_to_table(
        "metric_points",
        records=[(run, p.name, p.step, p.value, p.at) for p in batch.points],
        columns=_COLUMNS,
    )


async def insert_new_points(conn: Connection, batch: Batch) -> int:
    """Store the points of a batch not stored yet (same run, name and step), row by row: for a
    batch redelivered or re-sent. Returns how many were new."""
    points = batch.points
    status: str = await conn.execute(
        "INSERT INTO metric_points (run_uuid, name, step, value, at) "
        "SELECT $1, p.name, p.step, p.value, p.at FROM unnest($2::text[], $3::bigint[], "
        "$4::float8[], $5::timestamptz[]) AS p(name, step, value, at) ON CONFLICT DO NOTHING",
        batch.run_uuid,
        [p.name for p in points],
        [p.step for p in points],
        [p.value for p in points],
        [p.at for p in points],
    )
    return int(status.rsplit(" ", 1)[-1])


_COLUMNS = ("run_uuid", "name", "step", "value", "at")
# The names of a run's series, one index probe each (a loose index scan, not a full scan).
_NAMES_SQL = """
WITH RECURSIVE found AS (
    SELECT min(name) AS name FROM metric_points WHERE run_uuid = $1
    UNION ALL
    SELECT (SELECT min(name) FROM metric_points WHERE run_uuid = $1 AND name > found.name)
    FROM found WHERE found.name IS NOT NULL
)
SELECT name FROM found WHERE name IS NOT NULL
"""
_RANGE_SQL = "SELECT min(step), max(step) FROM metric_points WHERE run_uuid = $1 AND name = $2"
_WHOLE_SQL = (
    "SELECT step, value, value AS lo, value AS hi, 1 AS n, (value = 'NaN')::int AS nans, at "
    "FROM metric_points WHERE run_uuid = $1 AND name = $2 AND step BETWEEN $3 AND $4 "
    "ORDER BY step"
)
# Steps ``$3`` to ``$4 - 1`` cut into ``$5`` buckets of equal width (integer arithmetic): each
# keeps its last step, its min and max values, its size and its NaN points, so a chart of
# 1,000 points still shows every spike; the last step's value and time are then read by
# primary key, once a bucket (cheaper than carrying [step, value] arrays through the aggregate
# for every row; scalar subqueries, as a join may be planned as a nested loop over every
# point while the table's statistics are stale). PostgreSQL sorts NaN above every number, so
# min and max leave NaN out (else one NaN would be every bucket's max; a NaN is read as NULL,
# which aggregates skip, and counted as the values that are not there); they are NaN only
# when the whole bucket is.
_BUCKETS_SQL = (
    "WITH buckets AS (SELECT max(step) AS step, coalesce(min(v), 'NaN') AS lo, "
    "coalesce(max(v), 'NaN') AS hi, count(*) AS n, count(*) - count(v) AS nans "
    "FROM (SELECT step, nullif(value, 'NaN') AS v FROM metric_points "
    "WHERE run_uuid = $1 AND name = $2 AND step >= $3 AND step < $4) AS p "
    "GROUP BY (step - $3::bigint) * $5::bigint / ($4::bigint - $3::bigint)) "
    "SELECT b.step, (SELECT p.value FROM metric_points p WHERE p.run_uuid = $1 "
    "AND p.name = $2 AND p.step = b.step) AS value, (SELECT p.at FROM metric_points p "
    "WHERE p.run_uuid = $1 AND p.name = $2 AND p.step = b.step) AS at, b.lo, b.hi, b.n, b.nans "
    "FROM buckets b ORDER BY 1"
)


async def names(conn: Connection, run_uuid: str) -> list[str]:
    """The names of every series ``run_uuid`` has, in order."""
    return [r["name"] for r in await conn.fetch(_NAMES_SQL, run_uuid)]


async def series(
    conn: Connection,
    run_uuid: str,
    name: str,
    points: int,
    first_step: int | None = None,
    last_step: int | None = None,
) -> MetricSeries | None:
    """One series (its steps from ``first_step`` to ``last_step`` when set) whole when those
    span fewer than ``points`` steps, else reduced to buckets (see
    :class:`~axonal_events.metrics.SeriesPoint` for what a bucket says of NaN points); ``None``
    when the run has no such series. A whole series long enough is read from its summaries
    (:mod:`.rollups`), in buckets of a whole number of hundreds of steps."""
    bounds = await conn.fetchrow(_RANGE_SQL, run_uuid, name)
    if bounds is None or bounds[0] is None:
        return None
    stored = (bounds[0], bounds[1])
    width = None if (first_step, last_step) != (None, None) else summary_width(stored, points)
    if width is not None:
        await rollups.summarise(conn, run_uuid, name, stored[1])
        rows = await rollups.summarised(conn, run_uuid, name, width)
    else:
        rows = await _points(conn, run_uuid, name, window(stored, points, first_step, last_step))
    reduced = [
        SeriesPoint(
            step=r["step"], value=r["value"], min=r["lo"], max=r["hi"], nans=r["nans"], at=r["at"]
        )
        for r in rows
    ]
    total = sum(r["n"] for r in rows)
    return MetricSeries(run_uuid=run_uuid, name=name, total=total, points=reduced)


async def _points(conn: Connection, run_uuid: str, name: str, part: Window | None) -> Sequence[Any]:
    """The series' points in ``part``, whole or in buckets, read point by point."""
    if part is None:
        return []
    if part.buckets is None:
        return await conn.fetch(_WHOLE_SQL, run_uuid, name, part.first, part.last)
    async with conn.transaction(readonly=True):
        await conn.execute("SET LOCAL work_mem = '64MB'")
        args = (part.first, part.last + 1, part.buckets)
        return await conn.fetch(_BUCKETS_SQL, run_uuid, name, *args)


async def latest(conn: Connection, run_uuids: list[str]) -> dict[str, dict[str, float]]:
    """The value at the highest step of every metric of each run (NaN and infinities too)."""
    rows = await conn.fetch(
        "SELECT DISTINCT ON (run_uuid, name) run_uuid, name, value FROM metric_points "
        "WHERE run_uuid = ANY($1::text[]) ORDER BY run_uuid, name, step DESC",
        run_uuids,
    )
    values: dict[str, dict[str, float]] = {uuid: {} for uuid in run_uuids}
    for row in rows:
        values[row["run_uuid"]][row["name"]] = row["value"]
    return values
