"""Events handled at the same moment become one query and one insert.

The consumer handles the messages of a pull concurrently; each handler hands its event to
:meth:`Intake.submit` and waits. The first one schedules a flush for the next turn of the
loop, by which time the others have joined: their subscriptions are read in one query and
their deliveries inserted in one statement (keyed by subscription and event id, so an event
seen again adds nothing). Every handler returns (and its message is acknowledged) only once
that insert is committed, or raises its error (and the message is retried).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg

from axonal_events import CloudEvent, EventData
from axonal_notifications import deliveries_store, webhooks_store
from axonal_notifications.domain.deliveries import NewDelivery
from axonal_notifications.domain.filters import Subscription, wants

__all__ = ["Intake", "Received"]


@dataclass(frozen=True, slots=True)
class Received:
    """An event and its bytes as they were on the bus (what receivers get)."""

    raw: bytes
    event: CloudEvent[EventData]


class Intake:
    """Coalesces concurrent events into one read and one insert.

    Args:
        pool: the service's pool (it exists once the service has started).
        added: called after an insert that added deliveries.
    """

    def __init__(self, pool: Callable[[], asyncpg.Pool], added: Callable[[], None]) -> None:
        self.pool = pool
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

    async def _store(self, batch: Sequence[Received]) -> int:
        projects = {r.event.project for r in batch if r.event.project}
        if not projects:
            return 0
        async with self.pool().acquire() as conn:
            by_project: dict[str, list[Subscription]] = defaultdict(list)
            for sub in await webhooks_store.subscriptions(conn, sorted(projects)):
                by_project[sub.project].append(sub)
            new = [
                NewDelivery(sub.id, r.event.id, r.event.event_type, r.raw)
                for r in batch
                for sub in by_project.get(r.event.project or "", ())
                if wants(sub, r.event.event_type, r.event.data)
            ]
            return await deliveries_store.add(conn, new) if new else 0
