"""SQL of the ``agents`` table (heartbeats) and of runs by agent."""

from __future__ import annotations

import json
from datetime import datetime

from axonal_db import Connection
from axonal_events import AgentHeartbeat

__all__ = ["lost_agents", "mark_lost", "record_heartbeat", "runs_of", "set_agent"]


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


async def runs_of(conn: Connection, agent: str, statuses: list[str]) -> list[str]:
    rows = await conn.fetch(
        "SELECT uuid FROM runs WHERE agent = $1 AND status = ANY($2::text[]) ORDER BY seq",
        agent,
        statuses,
    )
    return [row["uuid"] for row in rows]


async def set_agent(conn: Connection, run_uuid: str, agent: str) -> None:
    await conn.execute(
        "UPDATE runs SET agent = $2 WHERE uuid = $1 AND agent IS DISTINCT FROM $2", run_uuid, agent
    )
