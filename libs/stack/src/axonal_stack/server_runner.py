"""NATS or PostgreSQL kept running: restarted with the same port and data when it dies.

The server was started by the supervisor (start-up fails when it cannot start); from then on
:class:`ServerRunner` notices its exit, kills what is left of it (PostgreSQL's backends keep
the old shared memory), clears stale lock files and starts it again after a backoff delay, as
often as needed. Clients find it at the same address: NATS clients reconnect by themselves,
asyncpg pools replace their broken connections.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from datetime import UTC, datetime
from typing import Any

from axonal_stack.policy import Backoff
from axonal_stack.process import ServerProcess
from axonal_stack.state import ServerState

__all__ = ["ServerRunner"]

log = logging.getLogger("axonal_stack")
_POLL = 0.1


class ServerRunner:
    """Watch ``server`` (already started) until cancelled; restart it whenever it dies.

    ``on_change`` is called after every change of :attr:`state` (down, up again);
    ``after_restart`` once the restarted server is ready (to re-provision, for example).
    """

    def __init__(
        self,
        role: str,
        server: ServerProcess,
        *,
        start_timeout: float,
        on_change: Callable[[ServerRunner, str], None],
        after_restart: Callable[[], Coroutine[Any, Any, None]] | None = None,
        backoff: Backoff | None = None,
    ) -> None:
        self.role = role
        self.server = server
        self.start_timeout = start_timeout
        self.on_change = on_change
        self.after_restart = after_restart
        self.backoff = backoff or Backoff(initial=0.2)
        self.state = ServerState()
        self.up = asyncio.Event()
        self.up.set()
        self._ready_at = time.monotonic()
        self._follow_up: asyncio.Task[None] | None = None

    @property
    def port(self) -> int | None:
        port = getattr(self.server, "port", None)
        return port if isinstance(port, int) else None

    async def run(self) -> None:
        """Watch and restart until cancelled (the supervisor then stops the server itself)."""
        try:
            await self._watch()
        finally:
            if self._follow_up is not None:
                self._follow_up.cancel()

    async def _watch(self) -> None:
        while True:
            code = await self._wait_exit()
            self.up.clear()
            down_at = time.monotonic()
            delay = self.backoff.crashed(down_at - self._ready_at)
            self.state = self.state.model_copy(
                update={"up": False, "last_exit_code": code, "down_since": datetime.now(UTC)}
            )
            self.on_change(
                self,
                f"{self.server.name} exited with code {code}; restarting it on port {self.port} "
                f"in {delay:.1f}s (restart #{self.state.restarts + 1}, "
                f"log: {self.server.log_path})",
            )
            await asyncio.to_thread(self.server.reap_group)
            await asyncio.sleep(delay)
            await self._restart()
            self._ready_at = time.monotonic()
            self.state = self.state.model_copy(
                update={"up": True, "restarts": self.state.restarts + 1, "down_since": None}
            )
            self.up.set()
            self.on_change(
                self,
                f"{self.server.name} restarted (pid {self.server.pid}, port {self.port}) "
                f"{self._ready_at - down_at:.1f}s after it died",
            )
            if self.after_restart is not None:  # beside the watch: the server may die again
                self._follow_up = asyncio.create_task(self.after_restart())

    async def _wait_exit(self) -> int:
        while (code := self.server.exit_code()) is None:  # noqa: ASYNC110 - a Popen to poll
            await asyncio.sleep(_POLL)
        return code

    async def _restart(self) -> None:
        """Start the server again until it is ready, backing off after each failure."""
        while True:
            try:
                # Spawned from the loop's thread: the server dies with the supervisor's main
                # thread (see parent_death_signal), not with a worker thread.
                await self.server.start_async(self.start_timeout)
            except Exception as exc:  # noqa: BLE001 - not ready, exited, or could not spawn
                delay = self.backoff.crashed(None)
                log.error("%s did not restart (retrying in %.1fs): %s", self.role, delay, exc)
                await asyncio.to_thread(self.server.reap_group)
                await asyncio.sleep(delay)
            else:
                return
