"""Keep the outbox and inbox tables small: published and processed rows age out."""

from __future__ import annotations

from datetime import timedelta

import asyncpg
import structlog

from axonal_bus import ticks

__all__ = ["keep_tables_small", "prune_inbox", "prune_outbox"]

log = structlog.get_logger(__name__)


async def _delete_older(pool: asyncpg.Pool, sql: str, older_than: timedelta) -> int:
    status: str = await pool.execute(sql, older_than)
    return int(status.rsplit(maxsplit=1)[-1])


async def prune_outbox(pool: asyncpg.Pool, older_than: timedelta) -> int:
    """Delete outbox rows published more than ``older_than`` ago; returns how many."""
    return await _delete_older(
        pool, "DELETE FROM outbox WHERE published_at < now() - $1::interval", older_than
    )


async def prune_inbox(pool: asyncpg.Pool, older_than: timedelta) -> int:
    """Forget processed event ids older than ``older_than`` (keep it above stream retention)."""
    return await _delete_older(
        pool, "DELETE FROM inbox WHERE processed_at < now() - $1::interval", older_than
    )


async def keep_tables_small(
    pool: asyncpg.Pool,
    *,
    every: float = 3600.0,
    outbox_after: timedelta = timedelta(days=1),
    inbox_after: timedelta = timedelta(days=35),
) -> None:
    """Prune both tables at start and every ``every`` seconds until cancelled, in one
    replica of the service per interval (:mod:`axonal_bus.ticks`)."""

    async def prune() -> None:
        outbox = await prune_outbox(pool, outbox_after)
        inbox = await prune_inbox(pool, inbox_after)
        log.debug("housekeeping.pruned", outbox=outbox, inbox=inbox)

    await ticks.every(pool, "housekeeping", every, prune, at_start=True)
