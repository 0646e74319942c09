"""SQL for the agent schema only: the executions this agent owns."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from axonal_db import Connection

__all__ = [
    "Execution",
    "Expiring",
    "deadline",
    "delete_project",
    "delete_run",
    "finish",
    "insert",
    "mark_cleaned",
    "set_running",
    "to_clean",
    "unfinished",
]


@dataclass(frozen=True, slots=True)
class Execution:
    run_uuid: str
    attempt: int
    pid: int | None
    folder: str
    status: str
    started_at: datetime | None
    queue: str
    project: str | None
    ttl_seconds: float | None


async def insert(
    conn: Connection,
    run_uuid: str,
    attempt: int,
    agent: str,
    queue: str,
    folder: str,
    ttl_seconds: float | None = None,
    project: str | None = None,
) -> bool:
    """Record a new attempt in ``starting``; ``False`` if it is already known."""
    added = await conn.fetchval(
        "INSERT INTO executions (run_uuid, attempt, agent, queue, folder, status, ttl_seconds, "
        "project) VALUES ($1, $2, $3, $4, $5, 'starting', $6, $7) "
        "ON CONFLICT DO NOTHING RETURNING true",
        run_uuid,
        attempt,
        agent,
        queue,
        folder,
        ttl_seconds,
        project,
    )
    return bool(added)


async def set_running(conn: Connection, run_uuid: str, attempt: int, pid: int | None) -> None:
    await conn.execute(
        "UPDATE executions SET status = 'running', pid = $3, started_at = now() "
        "WHERE run_uuid = $1 AND attempt = $2",
        run_uuid,
        attempt,
        pid,
    )


async def finish(conn: Connection, run_uuid: str, attempt: int, status: str) -> bool:
    """Close the attempt with ``status`` (and its folder's deletion deadline when it has a
    ttl); ``False`` if it was already closed."""
    done = await conn.fetchval(
        "UPDATE executions SET status = $3, finished_at = now(), delete_after = now() + "
        "make_interval(secs => ttl_seconds) "
        "WHERE run_uuid = $1 AND attempt = $2 AND finished_at IS NULL RETURNING true",
        run_uuid,
        attempt,
        status,
    )
    return bool(done)


async def unfinished(conn: Connection, agent: str) -> list[Execution]:
    rows = await conn.fetch(
        "SELECT run_uuid, attempt, pid, folder, status, started_at, queue, project, ttl_seconds "
        "FROM executions "
        "WHERE agent = $1 AND finished_at IS NULL ORDER BY created_at",
        agent,
    )
    return [Execution(**dict(row)) for row in rows]


@dataclass(frozen=True, slots=True)
class Expiring:
    """A finished attempt whose folder is deleted at ``delete_after``."""

    run_uuid: str
    attempt: int
    folder: str
    delete_after: datetime


async def to_clean(conn: Connection, agent: str) -> list[Expiring]:
    """Attempts of ``agent`` whose folder has a deadline and is not deleted yet."""
    rows = await conn.fetch(
        "SELECT run_uuid, attempt, folder, delete_after FROM executions WHERE agent = $1 "
        "AND delete_after IS NOT NULL AND cleaned_at IS NULL ORDER BY delete_after",
        agent,
    )
    return [Expiring(**dict(row)) for row in rows]


async def deadline(conn: Connection, run_uuid: str, attempt: int) -> datetime | None:
    value = await conn.fetchval(
        "SELECT delete_after FROM executions WHERE run_uuid = $1 AND attempt = $2 "
        "AND cleaned_at IS NULL",
        run_uuid,
        attempt,
    )
    return value if isinstance(value, datetime) else None


async def mark_cleaned(conn: Connection, run_uuid: str, attempt: int) -> None:
    await conn.execute(
        "UPDATE executions SET cleaned_at = now() WHERE run_uuid = $1 AND attempt = $2",
        run_uuid,
        attempt,
    )


async def delete_project(conn: Connection, project: str) -> int:
    """Forget the executions of a deleted project (``owner/name``); how many."""
    status: str = await conn.execute("DELETE FROM executions WHERE project = $1", project)
    return int(status.rsplit(maxsplit=1)[-1])


async def delete_run(conn: Connection, run_uuid: str) -> int:
    """Forget the executions of a deleted run; how many."""
    status: str = await conn.execute("DELETE FROM executions WHERE run_uuid = $1", run_uuid)
    return int(status.rsplit(maxsplit=1)[-1])
