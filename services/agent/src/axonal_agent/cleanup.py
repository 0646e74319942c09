"""termination.ttl: delete an attempt's folder once its deadline (kept in the database) passes."""

from __future__ import annotations

import asyncio
import contextlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import structlog

from axonal_agent import store
from axonal_agent.domain.retention import seconds_left
from axonal_bus.aio import cancel_and_wait

__all__ = ["Janitor"]

log = structlog.get_logger(__name__)


class Janitor:
    """One timer per folder to delete; on start, the deadlines an earlier life left."""

    def __init__(self, pool: asyncpg.Pool, agent: str) -> None:
        self.pool, self.agent = pool, agent
        self._timers: dict[str, asyncio.Task[None]] = {}

    async def resume(self) -> None:
        """Delete the folders whose ttl passed; schedule the others."""
        async with self.pool.acquire() as conn:
            for item in await store.to_clean(conn, self.agent):
                self._schedule(item.run_uuid, item.attempt, Path(item.folder), item.delete_after)

    async def attempt_ended(self, run_uuid: str, attempt: int, folder: Path) -> None:
        """An attempt closed: schedule its folder's deletion if it has a ttl."""
        async with self.pool.acquire() as conn:
            deadline = await store.deadline(conn, run_uuid, attempt)
        if deadline is not None:
            self._schedule(run_uuid, attempt, folder, deadline)

    def _schedule(self, run_uuid: str, attempt: int, folder: Path, at: datetime) -> None:
        key = f"{run_uuid}:{attempt}"
        if key not in self._timers:
            task = asyncio.create_task(self._delete(run_uuid, attempt, folder, at), name=key)
            self._timers[key] = task
            task.add_done_callback(lambda _: self._timers.pop(key, None))

    async def _delete(self, run_uuid: str, attempt: int, folder: Path, at: datetime) -> None:
        await asyncio.sleep(seconds_left(at, datetime.now(UTC)))
        await asyncio.to_thread(shutil.rmtree, folder, ignore_errors=True)
        with contextlib.suppress(OSError):
            folder.parent.rmdir()  # the run's folder, once its last attempt is gone
        try:
            async with self.pool.acquire() as conn:
                await store.mark_cleaned(conn, run_uuid, attempt)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            log.warning("cleanup.not_recorded", run_uuid=run_uuid, error=str(exc))
        log.info("cleanup.deleted", run_uuid=run_uuid, attempt=attempt, folder=str(folder))

    async def close(self) -> None:
        await cancel_and_wait(list(self._timers.values()))
