"""SQL of the projects' concurrency at admission: the room each project with queued runs has
left (its ``project_quotas`` limit, or the default, less its active runs)."""

from __future__ import annotations

from collections.abc import Sequence

from axonal_db import Connection

__all__ = ["limited", "project_room", "queues_waiting"]

_ACTIVE = (
    "SELECT count(*) FROM runs a WHERE a.owner = w.owner AND a.project = w.project "
    "AND a.status = ANY($3::text[]) AND a.kind NOT IN ('dag', 'matrix', 'schedule') AND a.managed"
)


async def limited(conn: Connection, default: int | None) -> bool:
    """Whether any project is bounded (without a default: whether one sets a limit)."""
    if default is not None:
        return True
    found: bool = await conn.fetchval(
        "SELECT EXISTS (SELECT 1 FROM project_quotas WHERE concurrent_runs IS NOT NULL)"
    )
    return found


async def project_room(
    conn: Connection, queue: str, default: int | None, active: Sequence[str]
) -> dict[str, int]:
    """``owner/name`` -> runs it may still start, for the bounded projects queued in ``queue``."""
    rows = await conn.fetch(
        "SELECT w.owner || '/' || w.project AS slug, "  # noqa: S608 - a constant
        f"COALESCE(q.concurrent_runs, $2) - ({_ACTIVE}) AS room "
        "FROM (SELECT DISTINCT owner, project FROM runs WHERE queue = $1 AND status = 'queued') w "
        "LEFT JOIN project_quotas q ON q.owner = w.owner AND q.name = w.project "
        "WHERE COALESCE(q.concurrent_runs, $2) IS NOT NULL",
        queue,
        default,
        list(active),
    )
    return {row["slug"]: int(row["room"]) for row in rows}


async def queues_waiting(conn: Connection, owner: str, project: str) -> list[str]:
    """The queues where runs of the project wait."""
    rows = await conn.fetch(
        "SELECT DISTINCT queue FROM runs WHERE owner = $1 AND project = $2 AND status = 'queued'",
        owner,
        project,
    )
    return [row["queue"] for row in rows]
