"""Events handled at the same moment become one transaction and one insert.

The consumer handles the messages of a pull concurrently; each handler hands its event to
:meth:`Intake.submit` and waits. The first one schedules a flush for the next turn of the
loop, by which time the others have joined: what they call for is decided in one transaction
(see :mod:`axonal_notifications.routing`) and their deliveries inserted in one statement
(keyed by target and event id, so an event seen again adds nothing). Every handler returns
(and its message is acknowledged) only once that transaction is committed, or raises its
error (and the message is retried).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import asyncpg

from axonal_db import transaction
from axonal_events import Subjects
from axonal_notifications import deliveries_store
from axonal_notifications.routing import Received, deliveries_for

__all__ = ["Intake", "Received"]


class Intake:
    """Coalesces concurrent events into one read and one insert.

    Args:
        pool: the service's pool (it exists once the service has started).
        subjects: where the events the intake announces go.
        added: called after an insert that added deliveries.
    """

    def __init__(
        self, pool: Callable[[], asyncpg.Pool], subjects: Subjects, added: Callable[[], None]
    ) -> None:
        self.pool = pool
        self.subjects = subjects
        self.added = added
        self._waiting: list[tuple[Received, asyncio.Future[None]]] = []
        self._tasks: set[asyncio.Task[Any]] = set()

    async def submit(self, received: Received) -> None:
        """Return once the deliveries ``received`` calls for are stored."""
        future = asyncio.get_running_loop().create_future()
        if not self._waiting:
            asyncio.get_running_loop().call_soon(self._start_flush)
        self._waiting.append((received, future))
        await future

    def _start_flush(self) -> None:
        task = asyncio.create_task(self._flush(self._waiting))
        self._waiting = []
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _flush(self, batch: list[tuple[Received, asyncio.Future[None]]]) -> None:
        try:
            count = await self._store([received for received, _ in batch])
        except Exception as exc:  # noqa: BLE001 - each waiting handler gets the failure
            for _, future in batch:
                if not future.done():
                    future.set_exception(exc)
            return
        for _, future in batch:
            if not future.done():
                future.set_result(None)
        if count:
            self.added()

    async def _store(self, batch: list[Received]) -> int:
        async with transaction(self.pool()) as conn:
            new = await deliveries_for(conn, self.subjects, batch)
            return await deliveries_store.add(conn, new) if new else 0
