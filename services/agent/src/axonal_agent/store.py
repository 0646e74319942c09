"""SQL for the agent schema only: the executions this agent owns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axonal_db import Connection

__all__ = ["Execution", "finish", "insert", "set_running", "unfinished"]


@dataclass(frozen=True, slots=True)
class Execution:
    run_uuid: str
    attempt: int
    pid: int | None
    folder: str
    status: str
    started_at: datetime | None


async def insert(
    conn: Connection, run_uuid: str, attempt: int, agent: str, queue: str, folder: str
) -> bool:
    """Record a new attempt in ``starting``; ``False`` if it is already known."""
    added = await conn.fetchval(
        "INSERT INTO executions (run_uuid, attempt, agent, queue, folder, status) "
        "VALUES ($1, $2, $3, $4, $5, 'starting') ON CONFLICT DO NOTHING RETURNING true",
        run_uuid,
        attempt,
        agent,
        queue,
        folder,
    )
    return bool(added)


async def set_running(conn: Connection, run_uuid: str, attempt: int, pid: int) -> None:
    await conn.execute(
        "UPDATE executions SET status = 'running', pid = $3, started_at = now() "
        "WHERE run_uuid = $1 AND attempt = $2",
        run_uuid,
        attempt,
        pid,
    )


async def finish(conn: Connection, run_uuid: str, attempt: int, status: str) -> bool:
    """Close the attempt with ``status``; ``False`` if it was already closed."""
    done = await conn.fetchval(
        "UPDATE executions SET status = $3, finished_at = now() "
        "WHERE run_uuid = $1 AND attempt = $2 AND finished_at IS NULL RETURNING true",
        run_uuid,
        attempt,
        status,
    )
    return bool(done)


async def unfinished(conn: Connection, agent: str) -> list[Execution]:
    rows = await conn.fetch(
        "SELECT run_uuid, attempt, pid, folder, status, started_at FROM executions "
        "WHERE agent = $1 AND finished_at IS NULL ORDER BY created_at",
        agent,
    )
    return [Execution(**dict(row)) for row in rows]
