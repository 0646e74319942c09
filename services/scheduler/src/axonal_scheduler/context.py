"""What every handler of the scheduler receives first: the service context and the agents'
deadline timers, the one long-lived state of the service."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from axonal_bus.aio import cancel_and_wait
from axonal_bus.service import Service, ServiceContext
from axonal_scheduler.settings import SchedulerSettings

__all__ = ["Context", "Deadlines"]


class Deadlines:
    """One timer per key (an agent): arming a key again replaces its timer. When one is due
    its work runs as a task; :meth:`close` cancels what is pending or running."""

    def __init__(self) -> None:
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[None]] = set()

    def arm(self, key: str, delay: float, work: Callable[[], Awaitable[None]]) -> None:
        """Run ``work()`` in ``delay`` seconds, unless ``key`` is armed again before."""
        if (old := self._timers.pop(key, None)) is not None:
            old.cancel()
        loop = asyncio.get_running_loop()
        self._timers[key] = loop.call_later(max(0.0, delay), self._due, key, work)

    def _due(self, key: str, work: Callable[[], Awaitable[None]]) -> None:
        self._timers.pop(key, None)
        task = asyncio.ensure_future(work())
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    async def close(self) -> None:
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        await cancel_and_wait(list(self._running))


class Context(ServiceContext[SchedulerSettings]):
    """The service context plus ``agent_deadlines``: when each agent that sent a heartbeat
    is lost unless it sends another (see :mod:`axonal_scheduler.agents.handlers`)."""

    def __init__(
        self, service: Service, settings: SchedulerSettings, agent_deadlines: Deadlines
    ) -> None:
        super().__init__(service, settings)
        self.agent_deadlines = agent_deadlines
