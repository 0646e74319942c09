"""SQL of the ``run_logs`` and ``log_totals`` tables: runs' log lines and how many each
attempt wrote."""

from __future__ import annotations

from axonal_db import Connection
from axonal_events.logs import LogBatch
from axonal_events.runs import LogLine

__all__ = ["insert_logs", "logs_complete", "read_logs", "record_log_total"]


async def insert_logs(conn: Connection, batch: LogBatch) -> None:
    """One multi-row insert; lines already stored (a redelivery) are skipped."""
    if not batch.records:
        return
    await conn.execute(
        "INSERT INTO run_logs (run_uuid, attempt, seq, at, stream, line) "
        "SELECT $1, $2, r.seq, r.at, r.stream, r.line FROM unnest($3::int[], "
        "$4::timestamptz[], $5::text[], $6::text[]) AS r(seq, at, stream, line) "
        "ON CONFLICT DO NOTHING",
        batch.run_uuid,
        batch.attempt,
        [r.seq for r in batch.records],
        [r.at for r in batch.records],
        [r.stream for r in batch.records],
        [r.line for r in batch.records],
    )


async def read_logs(conn: Connection, uuid: str, after: int, limit: int) -> list[LogLine]:
    """Lines of every attempt in order; ``seq`` numbers them across attempts from 1."""
    rows = await conn.fetch(
        "SELECT seq, at, stream, line FROM (SELECT row_number() OVER "
        "(ORDER BY attempt, seq) AS seq, at, stream, line FROM run_logs WHERE run_uuid = $1) l "
        "WHERE seq > $2 ORDER BY seq LIMIT $3",
        uuid,
        after,
        limit,
    )
    return [LogLine.model_validate(dict(row)) for row in rows]


async def record_log_total(conn: Connection, uuid: str, attempt: int, lines: int) -> None:
    await conn.execute(
        "INSERT INTO log_totals (run_uuid, attempt, lines) VALUES ($1, $2, $3) "
        "ON CONFLICT (run_uuid, attempt) DO UPDATE SET lines = EXCLUDED.lines",
        uuid,
        attempt,
        lines,
    )


async def logs_complete(conn: Connection, uuid: str) -> bool:
    """Every attempt that reported its line count has all those lines stored."""
    missing = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM log_totals t WHERE t.run_uuid = $1 AND t.lines > "
        "(SELECT count(*) FROM run_logs l WHERE l.run_uuid = t.run_uuid "
        "AND l.attempt = t.attempt))",
        uuid,
    )
    return not missing
