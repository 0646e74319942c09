"""SQL of the ``schedules`` table: the next slot of each schedule run, claimed under a lock."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from axonal_db import Connection

__all__ = [
    "CHANNEL_SQL",
    "ScheduleRow",
    "due",
    "earliest",
    "end",
    "get",
    "insert",
    "is_active",
    "list_for",
    "lock",
    "release",
    "set_paused",
    "update",
]

#: The channel a change to the clock is notified on (``<schema>_schedules``), at commit.
CHANNEL_SQL = "SELECT current_schema() || '_schedules'"
_NOTIFY = "SELECT pg_notify(current_schema() || '_schedules', '')"
_COLUMNS = (
    "run_uuid, spec::text AS spec, next_fire_at, fired, paused, last_run_uuid, waiting_on, released"
)


@dataclass
class ScheduleRow:
    run_uuid: str
    spec: dict[str, Any]
    next_fire_at: datetime | None
    fired: int
    paused: bool
    last_run_uuid: str | None
    waiting_on: str | None
    released: bool


def _row(record: Any) -> ScheduleRow:
    values = dict(record)
    values["spec"] = json.loads(values["spec"])
    return ScheduleRow(**values)


async def insert(
    conn: Connection, run_uuid: str, spec: dict[str, Any], first: datetime | None
) -> None:
    """Start the clock of a schedule run (once), and wake the clocks."""
    await conn.execute(
        "INSERT INTO schedules (run_uuid, spec, next_fire_at) VALUES ($1, $2::text::jsonb, $3) "
        "ON CONFLICT (run_uuid) DO NOTHING",
        run_uuid,
        json.dumps(spec),
        first,
    )
    await conn.execute(_NOTIFY)


async def due(conn: Connection, limit: int) -> list[str]:
    """Schedule runs whose next slot has come (no lock: each is claimed by :func:`lock`)."""
    rows = await conn.fetch(
        "SELECT run_uuid FROM schedules WHERE next_fire_at <= now() AND NOT paused "
        "AND waiting_on IS NULL ORDER BY next_fire_at LIMIT $1",
        limit,
    )
    return [r["run_uuid"] for r in rows]


async def earliest(conn: Connection) -> datetime | None:
    """The next slot of any schedule that can fire."""
    value: datetime | None = await conn.fetchval(
        "SELECT min(next_fire_at) FROM schedules WHERE NOT paused AND waiting_on IS NULL"
    )
    return value


async def lock(conn: Connection, run_uuids: list[str]) -> list[ScheduleRow]:
    """Those of the schedules no other transaction holds, locked for this one."""
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM schedules WHERE run_uuid = ANY($1::text[]) "  # noqa: S608
        "FOR UPDATE SKIP LOCKED",
        run_uuids,
    )
    return [_row(row) for row in rows]


async def get(conn: Connection, run_uuid: str) -> ScheduleRow | None:
    row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM schedules WHERE run_uuid = $1", run_uuid)  # noqa: S608
    return _row(row) if row else None


async def update(conn: Connection, row: ScheduleRow) -> None:
    await conn.execute(
        "UPDATE schedules SET next_fire_at = $2, fired = $3, last_run_uuid = $4, "
        "waiting_on = $5, released = $6, updated_at = now() WHERE run_uuid = $1",
        row.run_uuid,
        row.next_fire_at,
        row.fired,
        row.last_run_uuid,
        row.waiting_on,
        row.released,
    )


async def end(conn: Connection, run_uuid: str) -> None:
    """The schedule fires no more (its run ended)."""
    await conn.execute(
        "UPDATE schedules SET next_fire_at = NULL, updated_at = now() WHERE run_uuid = $1",
        run_uuid,
    )


async def is_active(conn: Connection, run_uuid: str) -> bool:
    """Whether the schedule has slots left (its run must not end yet)."""
    found = await conn.fetchval(
        "SELECT next_fire_at IS NOT NULL FROM schedules WHERE run_uuid = $1", run_uuid
    )
    return bool(found)


async def release(conn: Connection, run_uuid: str, waited_on: str) -> bool:
    """A schedule held by ``dependsOnPast`` for ``waited_on`` fires its held slot now."""
    done = await conn.fetchval(
        "UPDATE schedules SET waiting_on = NULL, released = true, updated_at = now() "
        "WHERE run_uuid = $1 AND waiting_on = $2 RETURNING true",
        run_uuid,
        waited_on,
    )
    if done:
        await conn.execute(_NOTIFY)
    return bool(done)


async def set_paused(conn: Connection, run_uuid: str, paused: bool) -> bool:
    """Pause or resume a schedule (resuming also releases a ``dependsOnPast`` hold)."""
    done = await conn.fetchval(
        "UPDATE schedules SET paused = $2, waiting_on = CASE WHEN $2 THEN waiting_on END, "
        "released = released OR (NOT $2 AND waiting_on IS NOT NULL), updated_at = now() "
        "WHERE run_uuid = $1 RETURNING true",
        run_uuid,
        paused,
    )
    if done:
        await conn.execute(_NOTIFY)
    return bool(done)


async def list_for(conn: Connection, owner: str, project: str) -> list[dict[str, Any]]:
    """The schedules of a project with their run's name and status, newest first."""
    rows = await conn.fetch(
        "SELECT s.run_uuid, s.spec::text AS spec, s.next_fire_at, s.fired, s.paused, "
        "s.waiting_on, s.last_run_uuid, r.name, r.status FROM schedules s "
        "JOIN runs r ON r.uuid = s.run_uuid "
        "WHERE r.owner = $1 AND r.project = $2 AND r.deleted_at IS NULL "
        "ORDER BY r.created_at DESC",
        owner,
        project,
    )
    return [dict(r) | {"spec": json.loads(r["spec"])} for r in rows]
