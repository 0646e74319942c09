"""What follows an attempt's end: its slots given back, and (termination.ttl) its folder
deleted once its deadline (kept in the database) passes.

One timer per folder to delete (``ctx.agent.cleanups``); on start, the deadlines an earlier
life left are resumed.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from collections.abc import Awaitable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import structlog

from axonal_agent.agent import Attempt, attempt_key
from axonal_agent.context import Context
from axonal_agent.domain.retention import seconds_left
from axonal_agent.runs import store
from axonal_bus.aio import cancel_and_wait

__all__ = ["after", "attempt_ended", "close", "resume"]

log = structlog.get_logger(__name__)


async def resume(ctx: Context) -> None:
    """Delete the folders whose ttl passed; schedule the others."""
    async with ctx.pool.acquire() as conn:
        for item in await store.to_clean(conn, ctx.settings.name):
            _schedule(ctx, item.run_uuid, item.attempt, Path(item.folder), item.delete_after)


async def after(ctx: Context, attempt: Attempt, work: Awaitable[None]) -> None:
    """An attempt's task: await its ``work`` (running it, or following it once adopted), then
    clean up after it: schedule its folder's deletion, forget it, give its slots back."""
    key, agent = attempt.key, ctx.agent
    try:
        await work
        cmd = attempt.command
        if cmd.ttl_seconds is not None:
            with contextlib.suppress(Exception):  # kept, as without a ttl
                await attempt_ended(ctx, cmd.run_uuid, cmd.attempt, attempt.folder)
    finally:
        agent.attempts.pop(key, None)
        agent.tasks.pop(key, None)
        agent.ledger.release(key)


async def attempt_ended(ctx: Context, run_uuid: str, attempt: int, folder: Path) -> None:
    """An attempt closed: schedule its folder's deletion if it has a ttl."""
    async with ctx.pool.acquire() as conn:
        deadline = await store.deadline(conn, run_uuid, attempt)
    if deadline is not None:
        _schedule(ctx, run_uuid, attempt, folder, deadline)


async def close(ctx: Context) -> None:
    """Cancel the timers: a restarted agent resumes them from the database."""
    await cancel_and_wait(list(ctx.agent.cleanups.values()))


def _schedule(ctx: Context, run_uuid: str, attempt: int, folder: Path, at: datetime) -> None:
    timers = ctx.agent.cleanups
    key = attempt_key(run_uuid, attempt)
    if key not in timers:
        task = asyncio.create_task(_delete(ctx, run_uuid, attempt, folder, at), name=key)
        timers[key] = task
        task.add_done_callback(lambda _: timers.pop(key, None))


async def _delete(ctx: Context, run_uuid: str, attempt: int, folder: Path, at: datetime) -> None:
    await asyncio.sleep(seconds_left(at, datetime.now(UTC)))
    await asyncio.to_thread(shutil.rmtree, folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        folder.parent.rmdir()  # the run's folder, once its last attempt is gone
    try:
        async with ctx.pool.acquire() as conn:
            await store.mark_cleaned(conn, run_uuid, attempt)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
        log.warning("cleanup.not_recorded", run_uuid=run_uuid, error=str(exc))
    log.info("cleanup.deleted", run_uuid=run_uuid, attempt=attempt, folder=str(folder))
