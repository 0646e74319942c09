"""A server started as a child process, waited on until ready and stopped cleanly."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import os
import signal
import subprocess
import sys
import time
from abc import ABC, abstractmethod
from collections.abc import Callable
from pathlib import Path
from typing import IO

import psutil

__all__ = ["ServerProcess", "ServerStartError", "log_tail", "parent_death_signal", "stop_pid"]


class ServerStartError(RuntimeError):
    """A server did not become ready; the message carries the tail of its log."""


def parent_death_signal() -> Callable[[], None] | None:
    """A ``preexec_fn`` asking Linux to send SIGINT when the parent thread exits, if available.

    Resolved in the parent so the forked child only makes one plain C call.
    """
    if not sys.platform.startswith("linux"):
        return None
    prctl = ctypes.CDLL(None, use_errno=True).prctl
    pr_set_pdeathsig = 1

    def arm() -> None:
        prctl(pr_set_pdeathsig, signal.SIGINT)

    return arm


def log_tail(path: Path, lines: int = 20) -> str:
    """The last ``lines`` lines of a log file, for error messages."""
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


def stop_pid(pid: int, timeout: float = 15.0, sig: int = signal.SIGTERM) -> None:
    """Signal ``pid`` and wait until it is gone, escalating to SIGKILL after ``timeout``."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.05)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        return


def _group_members(group: int) -> list[int]:
    """Live (not zombie) processes of process group ``group``."""
    found = []
    for proc in psutil.process_iter(["status"]):
        with contextlib.suppress(psutil.Error, OSError):
            if proc.info["status"] != psutil.STATUS_ZOMBIE and os.getpgid(proc.pid) == group:
                found.append(proc.pid)
    return found


class ServerProcess(ABC):
    """Run one server binary as a child process with its output in ``log_path``."""

    name: str = "server"
    stop_signal: int = signal.SIGTERM

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None

    @abstractmethod
    def command(self) -> list[str]:
        """The argument vector that starts the server."""

    @abstractmethod
    def is_ready(self) -> bool:
        """One cheap readiness probe."""

    def prepare(self) -> None:  # noqa: B027 - an optional hook
        """Create whatever the server needs on disk before it starts."""

    def popen_kwargs(self) -> dict[str, object]:
        """Extra keyword arguments for :class:`subprocess.Popen` (user, env...)."""
        return {}

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    def listens(self) -> bool:
        """Whether our process listens on its ``port`` (when it has one).

        ``is_ready`` only probes the port: when another server took it first (a stack started
        at the same moment), that server answers and ours exits failing to bind.
        """
        port = getattr(self, "port", None)
        if not isinstance(port, int) or self.process is None:
            return True
        try:
            sockets = psutil.Process(self.process.pid).net_connections(kind="inet")
        except psutil.AccessDenied:
            return True  # cannot tell: trust the probe
        except psutil.Error:
            return False
        return any(s.status == psutil.CONN_LISTEN and s.laddr.port == port for s in sockets)

    def spawn(self) -> None:
        """Start the process without waiting (from the thread it should die with, see
        :func:`parent_death_signal`)."""
        self.prepare()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        if self._log is not None:  # a restart: the previous process is gone
            self._log.close()
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.command(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            **self.popen_kwargs(),  # type: ignore[call-overload]
        )

    def _exited_error(self) -> ServerStartError | None:
        assert self.process is not None
        if self.process.poll() is None:
            return None
        code = self.process.returncode
        return ServerStartError(f"{self.name} exited with code {code}:\n{log_tail(self.log_path)}")

    def _not_ready(self, timeout: float) -> ServerStartError:
        return ServerStartError(
            f"{self.name} not ready after {timeout:.0f}s:\n{log_tail(self.log_path)}"
        )

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and block until it is ready or ``timeout`` passes."""
        self.spawn()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if error := self._exited_error():
                raise error
            if self.is_ready() and self.listens():
                return
            time.sleep(0.05)
        self.stop()
        raise self._not_ready(timeout)

    async def start_async(self, timeout: float = 30.0) -> None:
        """:meth:`start` for an event loop: spawned from the loop's thread, probed in others."""
        self.spawn()
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if error := self._exited_error():
                raise error
            if await asyncio.to_thread(lambda: self.is_ready() and self.listens()):
                return
            await asyncio.sleep(0.05)
        assert self.process is not None
        self.process.kill()  # a restart that failed: the next attempt kills the rest of it
        await asyncio.to_thread(self.process.wait)
        raise self._not_ready(timeout)

    def exit_code(self) -> int | None:
        """The exit code once the process is gone (reaped), else ``None``."""
        return None if self.process is None else self.process.poll()

    def clear_after_crash(self, pid: int) -> None:  # noqa: B027 - an optional hook
        """Remove what the dead process ``pid`` left that would stop a restart."""

    def reap_group(self, timeout: float = 10.0) -> None:
        """SIGKILL what is left of the dead server's process group (PostgreSQL's backends) and
        wait until none of it runs, then :meth:`clear_after_crash`. Blocking."""
        if self.process is None:
            return
        group = self.process.pid  # the server leads its own session and group
        deadline = time.monotonic() + timeout
        while _group_members(group) and time.monotonic() < deadline:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
            time.sleep(0.05)
        self.clear_after_crash(group)

    def stop(self, timeout: float = 15.0) -> None:
        """Stop the server (graceful signal, then SIGKILL) and close its log."""
        if self.process is not None and self.process.poll() is None:
            # Our own child stays a zombie until reaped, so wait() on it rather than
            # stop_pid(), whose kill(pid, 0) probe would see it alive until the timeout.
            self.process.send_signal(self.stop_signal)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self._log is not None:
            self._log.close()
            self._log = None

    def __enter__(self) -> ServerProcess:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()
