"""SQL that deletes tracked rows: what a deleted project, trace or run held, and batches of
expired rows (each batch by primary key, through the time indexes)."""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus.deletion import delete_rows
from axonal_db import Connection
from axonal_events.artifacts import content_key

__all__ = [
    "Removed",
    "delete_project",
    "delete_run",
    "delete_trace",
    "expire_artifacts",
    "expire_metrics",
    "expire_rows",
    "unreferenced",
]

#: An artifact row that went: its object key and the digest of its content key.
Removed = tuple[str, str]

_RUNS = "(SELECT uuid FROM runs WHERE project = $1)"
_OF_RUNS = ("metric_points", "metric_rollups", "metric_rollup_marks", "alert_states")
_PROJECT_BY_SLUG = (
    *(f"{table} WHERE run_uuid IN {_RUNS}" for table in _OF_RUNS),
    "alert_rules WHERE project = $1",
    "artifacts WHERE project = $1",
    "runs WHERE project = $1",
)
_PROJECT_BY_ID = (
    "scores WHERE project_id = $1",
    "observations WHERE project_id = $1",
    "traces WHERE project_id = $1",
    "sessions WHERE project_id = $1",
    "models WHERE project_id = $1",
    "project_retention WHERE project_id = $1",
)
_TRACE = (
    "scores WHERE project_id = $1 AND trace_id = $2",
    "observations WHERE project_id = $1 AND trace_id = $2",
    "traces WHERE project_id = $1 AND id = $2",
)
_RUN = (*(f"{table} WHERE run_uuid = $1" for table in _OF_RUNS), "runs WHERE uuid = $1")
# Sessions no trace names any more.
_EMPTY_SESSIONS = (
    "sessions s WHERE s.project_id = $1 AND s.created_at < $2 AND NOT EXISTS ("
    "SELECT 1 FROM traces t WHERE t.project_id = s.project_id AND t.session_id = s.id)"
)
# Expired rows of a hash-partitioned table, by primary key: (table, time column).
_EXPIRING = {"traces": "timestamp", "observations": "start_time", "scores": "timestamp"}
_EXPIRE_SQL = (
    "DELETE FROM {table} x USING (SELECT project_id, id FROM {table} "
    "WHERE project_id = $1 AND {column} < $2 LIMIT $3) d "
    "WHERE x.project_id = d.project_id AND x.id = d.id"
)
_EXPIRE_POINTS_SQL = (
    "DELETE FROM metric_points x USING (SELECT run_uuid, name, step FROM metric_points "  # noqa: S608
    f"WHERE run_uuid IN {_RUNS} AND at < $2 LIMIT $3) d "
    "WHERE x.run_uuid = d.run_uuid AND x.name = d.name AND x.step = d.step "
    "RETURNING x.run_uuid"
)
_EXPIRE_ARTIFACTS_SQL = (
    "DELETE FROM artifacts x USING (SELECT ctid FROM artifacts "
    "WHERE project = $1 AND created_at < $2 LIMIT $3) d WHERE x.ctid = d.ctid "
    "RETURNING x.path, x.sha256"
)


def _count(status: str) -> int:
    return int(status.rsplit(maxsplit=1)[-1])


async def _empty_sessions(conn: Connection, project_id: str, before: datetime) -> int:
    return await delete_rows(conn, [_EMPTY_SESSIONS], project_id, before)


async def delete_project(conn: Connection, slug: str, project_id: str) -> int:
    return await delete_rows(conn, _PROJECT_BY_SLUG, slug) + await delete_rows(
        conn, _PROJECT_BY_ID, project_id
    )


async def delete_trace(conn: Connection, project_id: str, trace_id: str) -> int:
    went = await delete_rows(conn, _TRACE, project_id, trace_id)
    return went + await _empty_sessions(conn, project_id, datetime.max.replace(tzinfo=UTC))


async def delete_run(conn: Connection, run_uuid: str) -> list[Removed]:
    """Delete the run's rows; its artifacts' keys and digests."""
    rows = await conn.fetch(
        "DELETE FROM artifacts WHERE run_uuid = $1 RETURNING path, sha256", run_uuid
    )
    await delete_rows(conn, _RUN, run_uuid)
    return [(r["path"], r["sha256"]) for r in rows]


async def expire_rows(
    conn: Connection, table: str, project_id: str, cutoff: datetime, limit: int
) -> int:
    """Delete up to ``limit`` rows of ``table`` (traces, observations or scores) of the
    project older than ``cutoff``; expired traces take the sessions left empty along."""
    sql = _EXPIRE_SQL.format(table=table, column=_EXPIRING[table])
    went = _count(await conn.execute(sql, project_id, cutoff, limit))
    if table == "traces" and went < limit:
        went += await _empty_sessions(conn, project_id, cutoff)
    return went


async def expire_metrics(conn: Connection, slug: str, cutoff: datetime, limit: int) -> int:
    """Delete up to ``limit`` metric points of the project older than ``cutoff``; the
    summaries of their runs are dropped (the next read summarises again)."""
    rows = await conn.fetch(_EXPIRE_POINTS_SQL, slug, cutoff, limit)
    runs = sorted({r["run_uuid"] for r in rows})
    if runs:
        await conn.execute("DELETE FROM metric_rollups WHERE run_uuid = ANY($1::text[])", runs)
        await conn.execute("DELETE FROM metric_rollup_marks WHERE run_uuid = ANY($1::text[])", runs)
    return len(rows)


async def expire_artifacts(
    conn: Connection, slug: str, cutoff: datetime, limit: int
) -> list[Removed]:
    """Delete up to ``limit`` artifact rows of the project older than ``cutoff``."""
    rows = await conn.fetch(_EXPIRE_ARTIFACTS_SQL, slug, cutoff, limit)
    return [(r["path"], r["sha256"]) for r in rows]


async def unreferenced(conn: Connection, slug: str, removed: list[Removed]) -> list[str]:
    """Of the keys of ``removed`` artifacts, those no artifact row of the project still
    names: their paths, and the digests no row still has."""
    paths = sorted({path for path, _ in removed})
    digests = sorted({digest for _, digest in removed})
    kept_paths = {
        r["path"]
        for r in await conn.fetch(
            "SELECT DISTINCT path FROM artifacts WHERE project = $1 AND path = ANY($2::text[])",
            slug,
            paths,
        )
    }
    kept_digests = {
        r["sha256"]
        for r in await conn.fetch(
            "SELECT DISTINCT sha256 FROM artifacts WHERE project = $1 AND sha256 = ANY($2::text[])",
            slug,
            digests,
        )
    }
    return [p for p in paths if p not in kept_paths] + [
        content_key(slug, d) for d in digests if d not in kept_digests
    ]
