"""SQL of the ``agents`` table: when each agent was last seen, and whether it is lost."""

from __future__ import annotations

import json
from datetime import datetime

from axonal_db import Connection
from axonal_events import AgentHeartbeat

__all__ = ["lost_agents", "mark_lost", "record_heartbeat"]


async def record_heartbeat(conn: Connection, beat: AgentHeartbeat) -> None:
    """Remember when ``beat``'s agent was last seen; a lost agent that beats is back."""
    await conn.execute(
        "INSERT INTO agents (name, queues, interval_seconds, last_seen) "
        "VALUES ($1, $2::text::jsonb, $3, $4) ON CONFLICT (name) DO UPDATE SET "
        "queues = EXCLUDED.queues, interval_seconds = EXCLUDED.interval_seconds, "
        "last_seen = greatest(agents.last_seen, EXCLUDED.last_seen), lost_at = NULL",
        beat.agent,
        json.dumps(beat.queues),
        beat.interval_seconds,
        beat.at,
    )


async def lost_agents(conn: Connection, now: datetime, misses: int) -> list[str]:
    """Agents not lost yet whose last heartbeat is older than ``misses`` intervals."""
    rows = await conn.fetch(
        "SELECT name FROM agents WHERE lost_at IS NULL AND "
        "last_seen + make_interval(secs => interval_seconds * $2) <= $1 FOR UPDATE SKIP LOCKED",
        now,
        misses,
    )
    return [row["name"] for row in rows]


async def mark_lost(conn: Connection, name: str, now: datetime) -> None:
    await conn.execute("UPDATE agents SET lost_at = $2 WHERE name = $1", name, now)
