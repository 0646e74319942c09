"""One supervised service process: start, wait until it answers ping, restart after a crash.

Once healthy, the service is pinged every ``ping_interval`` seconds; when it has answered none
for ``hang_timeout`` seconds while NATS was up (:class:`~axonal_stack.policy.HangWatch`) it
is killed with SIGKILL (a stopped or deadlocked process ignores SIGTERM) and restarted as
after a crash.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import subprocess
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from pathlib import Path

from axonal_bus.aio import finish_despite_cancellation
from axonal_stack.discovery import ServiceEntry
from axonal_stack.policy import Backoff, HangWatch, PingOutcome
from axonal_stack.process import parent_death_signal
from axonal_stack.processes import ref_for
from axonal_stack.state import ServiceState

__all__ = ["Probe", "ServiceRunner", "until_healthy"]

log = logging.getLogger("axonal_stack")

#: Pings a service once: what it answered, or why it did not.
Probe = Callable[[str], Awaitable[PingOutcome]]
_PROBE_INTERVAL = 0.2
#: Seconds one ping may take, and then some (the supervisor waits 2 s for an answer).
_PING_SLACK = 5.0


class ServiceRunner:
    """Keeps ``python -m <module>`` running until cancelled, then stops it (SIGTERM, SIGKILL).

    Output goes to ``log_path``; ``healthy`` is set while the current process answers ping.
    ``on_change`` is called whenever :attr:`state` changes (pid, restarts, exit code).
    ``name`` is the process's in the logs (a replica's: ``api-2``; the service's by default).
    ``before_spawn`` may change :attr:`env` and :attr:`state` before each start.
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
        hang_timeout: float = 30.0,
        ping_interval: float = 3.0,
        name: str | None = None,
        before_spawn: Callable[[ServiceRunner], None] | None = None,
    ) -> None:
        self.entry = entry
        self.name = name or entry.name
        self.env = dict(env)
        self.log_path = log_path
        self.probe = probe
        self.on_change = on_change
        self.backoff = backoff or Backoff()
        self.stop_timeout = stop_timeout
        self.hang_timeout = hang_timeout
        self.ping_interval = ping_interval
        self.before_spawn = before_spawn
        self.state = ServiceState(module=entry.module)
        self.healthy = asyncio.Event()
        self._healthy_since: float | None = None
        self._hung: str | None = None

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
            reason = self._hung or f"exited with code {code}"
            self.state = self.state.model_copy(
                update={
                    "process": None,
                    "last_exit_code": code,
                    "restarts": self.state.restarts + 1,
                    "hangs": self.state.hangs + (self._hung is not None),
                    "last_restart_reason": reason,
                }
            )
            self.on_change()
            log.warning(
                "%s %s; restarting in %.1fs (restart #%d, log: %s)",
                self.name, reason, delay, self.state.restarts, self.log_path,
            )  # fmt: skip
            await asyncio.sleep(delay)

    async def _spawn(self) -> asyncio.subprocess.Process:
        if self.before_spawn is not None:  # e.g. a port taken meanwhile is chosen again
            self.before_spawn(self)
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
        log.info("%s started (pid %d)", self.name, proc.pid)
        return proc

    async def _watch(self, proc: asyncio.subprocess.Process) -> float | None:
        """Wait for the process to exit; return how long it was healthy (``None``: never)."""
        self._healthy_since = None
        self._hung = None
        pinger = asyncio.create_task(self._ping_until_hung(proc))
        try:
            await proc.wait()
        finally:
            pinger.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pinger
            self.healthy.clear()
        since = self._healthy_since
        return None if since is None else time.monotonic() - since

    async def _ping_until_hung(self, proc: asyncio.subprocess.Process) -> None:
        """Ping until healthy, then keep pinging; SIGKILL the process once it counts as hung."""
        while proc.returncode is None:
            if await self.probe(self.entry.name) == "ok":
                self._healthy_since = time.monotonic()
                self.healthy.set()
                log.info("%s is healthy", self.name)
                break
            await asyncio.sleep(_PROBE_INTERVAL)
        if self.hang_timeout <= 0:
            return
        # Pings come every interval plus up to a ping's timeout: a longer gap is a pause.
        max_gap = 2 * self.ping_interval + _PING_SLACK
        watch = HangWatch(self.hang_timeout, since=time.monotonic(), max_gap=max_gap)
        while proc.returncode is None:
            await asyncio.sleep(self.ping_interval)
            outcome = await self.probe(self.entry.name)
            if not watch.observe(time.monotonic(), outcome):
                continue
            self._hung = f"answered no ping for {watch.silent_for(time.monotonic()):.0f}s"
            log.warning("%s %s: killing it (pid %d)", self.name, self._hung, proc.pid)
            with contextlib.suppress(ProcessLookupError):
                proc.kill()  # SIGKILL: a stopped process never handles SIGTERM
            return

    async def _terminate(self, proc: asyncio.subprocess.Process) -> None:
        if proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), self.stop_timeout)
            except TimeoutError:
                log.warning(
                    "%s ignored SIGTERM for %.0fs: killing it", self.name, self.stop_timeout
                )
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        self.state = self.state.model_copy(
            update={"process": None, "last_exit_code": proc.returncode}
        )
        self.healthy.clear()
        self.on_change()
        log.info("%s stopped", self.name)


async def until_healthy(
    runners: Iterable[ServiceRunner], stop: asyncio.Event, timeout: float
) -> None:
    """Wait until every runner's process answers its ping, ``stop`` is set, or ``timeout``
    seconds pass."""

    async def all_healthy() -> None:
        await asyncio.gather(*(runner.healthy.wait() for runner in runners))

    healthy = asyncio.create_task(all_healthy())
    stopped = asyncio.create_task(stop.wait())
    await asyncio.wait({healthy, stopped}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    for task in (healthy, stopped):
        task.cancel()
