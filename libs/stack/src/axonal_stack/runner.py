"""One supervised service process: start, wait until it answers ping, restart after a crash."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path

from axonal_bus.aio import finish_despite_cancellation
from axonal_stack.discovery import ServiceEntry
from axonal_stack.policy import Backoff
from axonal_stack.process import parent_death_signal
from axonal_stack.processes import ref_for
from axonal_stack.state import ServiceState

__all__ = ["Probe", "ServiceRunner"]

log = logging.getLogger("axonal_stack")

#: Answers whether a service is healthy (one ping).
Probe = Callable[[str], Awaitable[bool]]
_PROBE_INTERVAL = 0.2


class ServiceRunner:
    """Keeps ``python -m <module>`` running until cancelled, then stops it (SIGTERM, SIGKILL).

    Output goes to ``log_path``; ``healthy`` is set while the current process answers ping.
    ``on_change`` is called whenever :attr:`state` changes (pid, restarts, exit code).
    """

    def __init__(
        self,
        entry: ServiceEntry,
        *,
        env: Mapping[str, str],
        log_path: Path,
        probe: Probe,
        on_change: Callable[[], None],
        backoff: Backoff | None = None,
        stop_timeout: float = 15.0,
    ) -> None:
        self.entry = entry
        self.env = dict(env)
        self.log_path = log_path
        self.probe = probe
        self.on_change = on_change
        self.backoff = backoff or Backoff()
        self.stop_timeout = stop_timeout
        self.state = ServiceState(module=entry.module)
        self.healthy = asyncio.Event()

    async def run(self) -> None:
        """Run, restart with backoff on exit; on cancellation stop the process and return."""
        while True:
            proc = await self._spawn()
            try:
                healthy_for = await self._watch(proc)
            except asyncio.CancelledError:  # the service stops before the supervisor goes on
                await finish_despite_cancellation(self._terminate(proc))
                raise
            code = proc.returncode
            delay = self.backoff.crashed(healthy_for)
            self.state = self.state.model_copy(
                update={
                    "process": None,
                    "last_exit_code": code,
                    "restarts": self.state.restarts + 1,
                }
            )
            self.on_change()
            log.warning(
                "%s exited with code %s; restarting in %.1fs (restart #%d, log: %s)",
                self.entry.name, code, delay, self.state.restarts, self.log_path,
            )  # fmt: skip
            await asyncio.sleep(delay)

    async def _spawn(self) -> asyncio.subprocess.Process:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("ab") as out:
            proc = await asyncio.create_subprocess_exec(
                *self.entry.command(),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=self.env,
                start_new_session=True,  # Ctrl-C reaches only the supervisor, which stops us
                preexec_fn=parent_death_signal(),  # no orphan if the supervisor is killed
            )
        self.state = self.state.model_copy(update={"process": ref_for(proc.pid)})
        self.on_change()
        log.info("%s started (pid %d)", self.entry.name, proc.pid)
        return proc

    async def _watch(self, proc: asyncio.subprocess.Process) -> float | None:
        """Wait for the process to exit; return how long it was healthy (``None``: never)."""
        ready = asyncio.create_task(self._until_healthy(proc))
        try:
            await proc.wait()
        finally:
            ready.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ready
            self.healthy.clear()
        became_healthy = ready.result() if not ready.cancelled() else None
        return None if became_healthy is None else time.monotonic() - became_healthy

    async def _until_healthy(self, proc: asyncio.subprocess.Process) -> float | None:
        while proc.returncode is None:
            if await self.probe(self.entry.name):
                self.healthy.set()
                log.info("%s is healthy", self.entry.name)
                return time.monotonic()
            await asyncio.sleep(_PROBE_INTERVAL)
        return None

    async def _terminate(self, proc: asyncio.subprocess.Process) -> None:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), self.stop_timeout)
            except TimeoutError:
                log.warning(
                    "%s ignored SIGTERM for %.0fs: killing it", self.entry.name, self.stop_timeout
                )
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        self.state = self.state.model_copy(
            update={"process": None, "last_exit_code": proc.returncode}
        )
        self.healthy.clear()
        self.on_change()
        log.info("%s stopped", self.entry.name)
