"""Periodic work done once per interval by a service, however many replicas it runs.

A timer loop runs in every replica (a retention pass, housekeeping, pruning): left alone,
each replica would do the work once per interval, and two replicas twice, side by side on
the same rows. Before the work, a replica claims the interval's tick in its service's schema
(``timer_ticks``): one statement that succeeds when no replica has fired that timer for
(nine tenths of) the interval, so one replica fires it and the others skip. The database's
clock decides, and a replica that claims and then dies leaves the work to the next interval.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import asyncpg
import structlog

__all__ = ["claim_tick", "every"]

log = structlog.get_logger(__name__)

#: Of the interval, what must have passed since the last firing: a replica's own sleep, timed
#: by its clock, may end a little early by the database's.
_SPACING = 0.9
_CLAIM_SQL = (
    "INSERT INTO timer_ticks (name, fired_at) VALUES ($1, now()) "
    "ON CONFLICT (name) DO UPDATE SET fired_at = now() "
    "WHERE timer_ticks.fired_at <= now() - make_interval(secs => $2) RETURNING true"
)


async def claim_tick(pool: asyncpg.Pool, name: str, interval: float) -> bool:
    """Whether this replica fires timer ``name`` now: no replica has for ``interval``
    seconds (less a tenth). Concurrent claims wait for each other; one wins."""
    return bool(await pool.fetchval(_CLAIM_SQL, name, interval * _SPACING))


async def every(
    pool: asyncpg.Pool,
    name: str,
    interval: float,
    work: Callable[[], Awaitable[object]],
    *,
    at_start: bool = False,
) -> None:
    """Until cancelled: every ``interval`` seconds (and first at once when ``at_start``), run
    ``work`` if this replica claims the tick. A claim or work that fails (PostgreSQL away)
    is logged, and the next interval tries again."""
    if not at_start:
        await asyncio.sleep(interval)
    while True:
        try:
            if await claim_tick(pool, name, interval):
                await work()
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("timer.failed", timer=name, error=str(exc))
        await asyncio.sleep(interval)
