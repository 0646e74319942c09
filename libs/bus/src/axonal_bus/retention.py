"""Retention, applied by each service to the data it owns.

A service keeps the retention of every project in its own ``project_retention`` table (same
columns in each schema), from ``project.retention.changed`` (the newest change wins; a
redelivery changes nothing). On a schedule it deletes what expired, kind by kind
(:class:`Expiry`), in small batches, each in a short transaction of its own, so ingestion
never waits long for a pass.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg
import structlog

from axonal_bus import ticks
from axonal_bus.aio import cancel_and_wait
from axonal_bus.errors import Invalid
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import CloudEvent, EventData
from axonal_events.catalog import ProjectRetentionChanged
from axonal_events.retention import DataKind, RetentionPolicy

__all__ = ["Expiry", "Kept", "apply_retention", "keep_retention", "kept", "save_retention"]

log = structlog.get_logger(__name__)

_SAVE_SQL = (
    "INSERT INTO project_retention (project_id, owner, name, retention, changed_at) "
    "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (project_id) DO UPDATE SET owner = EXCLUDED.owner, "
    "name = EXCLUDED.name, retention = EXCLUDED.retention, changed_at = EXCLUDED.changed_at "
    "WHERE project_retention.changed_at <= EXCLUDED.changed_at"
)


@dataclass(frozen=True, slots=True)
class Kept:
    """A project's retention as this service keeps it."""

    project_id: str
    owner: str
    name: str
    retention: RetentionPolicy

    @property
    def slug(self) -> str:
        return f"{self.owner}/{self.name}"


@dataclass(frozen=True, slots=True)
class Expiry:
    """One kind of data a service expires: ``expire(conn, project, cutoff, limit)`` deletes
    up to ``limit`` of the project's items older than ``cutoff`` and says how many went."""

    kind: DataKind
    expire: Callable[[Connection, Kept, datetime, int], Awaitable[int]]


async def save_retention(conn: Connection, changed: ProjectRetentionChanged, at: datetime) -> None:
    await conn.execute(
        _SAVE_SQL,
        changed.project_id,
        changed.owner,
        changed.name,
        changed.retention.model_dump(exclude_none=True),
        at,
    )


async def kept(conn: Connection) -> list[Kept]:
    """Every project with a retention other than 'for ever'."""
    rows = await conn.fetch(
        "SELECT project_id, owner, name, retention FROM project_retention "
        "WHERE retention <> '{}'::jsonb ORDER BY project_id"
    )
    return [
        Kept(r["project_id"], r["owner"], r["name"], RetentionPolicy.model_validate(r["retention"]))
        for r in rows
    ]


async def apply_retention(
    pool: asyncpg.Pool,
    expiries: Sequence[Expiry],
    *,
    batch: int = 1000,
    now: datetime | None = None,
) -> dict[str, int]:
    """One pass: delete what expired at ``now``, ``batch`` items per transaction; how many
    of each kind went."""
    now = now or datetime.now(UTC)
    async with pool.acquire() as conn:
        projects = await kept(conn)
    deleted: dict[str, int] = {}
    for project in projects:
        for expiry in expiries:
            cutoff = project.retention.cutoff(expiry.kind, now)
            while cutoff is not None:
                async with transaction(pool) as conn:
                    went = await expiry.expire(conn, project, cutoff, batch)
                deleted[expiry.kind] = deleted.get(expiry.kind, 0) + went
                if went < batch:
                    break
                await asyncio.sleep(0)  # let ingestion in between batches
    return deleted


def keep_retention(
    ctx: ServiceContext[Any], expiries: Sequence[Expiry], *, every: float, batch: int
) -> None:
    """Keep the projects' retention (durable ``<service>-retention``) and apply it every
    ``every`` seconds (in one of the service's replicas: :mod:`axonal_bus.ticks`)."""

    async def on_changed(ctx: ServiceContext[Any], event: CloudEvent[EventData]) -> None:
        if not isinstance(event.data, ProjectRetentionChanged):
            raise Invalid(f"expected project.retention.changed, got {event.type}")
        async with ctx.pool.acquire() as conn:
            await save_retention(conn, event.data, event.time)

    async def one_pass() -> None:
        deleted = await apply_retention(ctx.pool, expiries, batch=batch)
        if deleted:
            log.info("retention.applied", service=ctx.name, deleted=deleted)

    async def passes() -> None:  # one replica per interval
        await ticks.every(ctx.pool, "retention", every, one_pass)

    tasks: list[asyncio.Task[None]] = []

    async def start() -> None:
        tasks.append(asyncio.create_task(passes(), name=f"{ctx.name}-retention"))

    async def stop() -> None:
        await cancel_and_wait(tasks)

    ctx.consume_events(f"{ctx.name}-retention", [ProjectRetentionChanged.type_name], on_changed)
    ctx.on_startup(start)
    ctx.on_shutdown(stop)
