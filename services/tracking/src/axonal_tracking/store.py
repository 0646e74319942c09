"""SQL for the tracking schema only: runs heard of, metric points, series and latest values."""

from __future__ import annotations

import asyncpg

from axonal_db import Connection
from axonal_events.metrics import MetricSeries, SeriesPoint
from axonal_tracking.wire import Batch

__all__ = ["insert_points", "latest", "record_run", "run_project", "series"]


async def record_run(conn: Connection, uuid: str, project: str) -> None:
    await conn.execute(
        "INSERT INTO runs (uuid, project) VALUES ($1, $2) ON CONFLICT DO NOTHING", uuid, project
    )


async def run_project(conn: Connection, uuid: str) -> str | None:
    """The project of a run heard of, ``None`` for another run."""
    project: str | None = await conn.fetchval("SELECT project FROM runs WHERE uuid = $1", uuid)
    return project


async def insert_points(conn: Connection, batch: Batch) -> int:
    """Store a batch; points already stored (same run, name and step) are skipped.

    The fast path is one COPY inside a savepoint; a batch that repeats stored points (a
    redelivery, a re-send) fails it on the primary key and is then inserted row-wise with
    ``ON CONFLICT DO NOTHING``. Call inside a transaction.
    """
    run, points = batch.run_uuid, batch.points
    try:
        async with conn.transaction():
            await conn.copy_records_to_table(
                "metric_points",
                records=[(run, p.name, p.step, p.value, p.at) for p in points],
                columns=_COLUMNS,
            )
        return len(points)
    except asyncpg.UniqueViolationError:
        status: str = await conn.execute(
            "INSERT INTO metric_points (run_uuid, name, step, value, at) "
            "SELECT $1, p.name, p.step, p.value, p.at FROM unnest($2::text[], $3::bigint[], "
            "$4::float8[], $5::timestamptz[]) AS p(name, step, value, at) ON CONFLICT DO NOTHING",
            run,
            [p.name for p in points],
            [p.step for p in points],
            [p.value for p in points],
            [p.at for p in points],
        )
        return int(status.rsplit(" ", 1)[-1])


_COLUMNS = ("run_uuid", "name", "step", "value", "at")
_BOUNDS_SQL = (
    "SELECT run_uuid, name, min(step) AS lo, max(step) AS hi, count(*) AS n FROM metric_points "
    "WHERE run_uuid = ANY($1::text[]) {names} GROUP BY run_uuid, name ORDER BY run_uuid, name"
)
_WHOLE_SQL = (
    "SELECT step, value, value AS lo, value AS hi FROM metric_points "
    "WHERE run_uuid = $1 AND name = $2 ORDER BY step"
)
# Steps cut into ``$5`` buckets of equal width: each keeps its last step and value (the value
# of the highest step, via the max of [step, value] pairs) and its min and max values, so a
# chart of 1,000 points still shows every spike.
_BUCKETS_SQL = (
    "SELECT max(step) AS step, (max(ARRAY[step::float8, value]))[2] AS value, "
    "min(value) AS lo, max(value) AS hi FROM metric_points WHERE run_uuid = $1 AND name = $2 "
    "GROUP BY width_bucket(step::float8, $3::float8, $4::float8, $5::int) ORDER BY 1"
)


async def series(
    conn: Connection, run_uuids: list[str], names: list[str], points: int
) -> list[MetricSeries]:
    """Each series whole when it has at most ``points`` points, else reduced to buckets."""
    if names:
        bounds = await conn.fetch(
            _BOUNDS_SQL.format(names="AND name = ANY($2::text[])"), run_uuids, names
        )
    else:
        bounds = await conn.fetch(_BOUNDS_SQL.format(names=""), run_uuids)
    found = []
    for b in bounds:
        run, name, total = b["run_uuid"], b["name"], int(b["n"])
        if total <= points:
            rows = await conn.fetch(_WHOLE_SQL, run, name)
        else:
            rows = await conn.fetch(_BUCKETS_SQL, run, name, b["lo"], b["hi"] + 1, points)
        reduced = [
            SeriesPoint(step=r["step"], value=r["value"], min=r["lo"], max=r["hi"]) for r in rows
        ]
        found.append(MetricSeries(run_uuid=run, name=name, total=total, points=reduced))
    return found


async def latest(conn: Connection, run_uuids: list[str]) -> dict[str, dict[str, float]]:
    """The value at the highest step of every metric of each run."""
    rows = await conn.fetch(
        "SELECT DISTINCT ON (run_uuid, name) run_uuid, name, value FROM metric_points "
        "WHERE run_uuid = ANY($1::text[]) ORDER BY run_uuid, name, step DESC",
        run_uuids,
    )
    values: dict[str, dict[str, float]] = {uuid: {} for uuid in run_uuids}
    for row in rows:
        values[row["run_uuid"]][row["name"]] = row["value"]
    return values
