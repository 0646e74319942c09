"""A server started as a child process, waited on until ready and stopped cleanly."""

from __future__ import annotations

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

    def start(self, timeout: float = 30.0) -> None:
        """Start the server and block until it is ready or ``timeout`` passes."""
        self.prepare()
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self._log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            self.command(),
            stdout=self._log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            **self.popen_kwargs(),  # type: ignore[call-overload]
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                code = self.process.returncode
                raise ServerStartError(
                    f"{self.name} exited with code {code}:\n{log_tail(self.log_path)}"
                )
            if self.is_ready() and self.listens():
                return
            time.sleep(0.05)
        self.stop()
        raise ServerStartError(
            f"{self.name} not ready after {timeout:.0f}s:\n{log_tail(self.log_path)}"
        )

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
