"""The executor port: how an agent prepares and runs one attempt, wherever it runs.

The local executor (:mod:`axonal_agent.adapters.local`) runs processes on the agent's host;
a Kubernetes executor implements the same protocol.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from axonal_agent.domain.init_steps import InitStep
from axonal_agent.domain.resources import Limits
from axonal_agent.domain.service import ServiceSpec

__all__ = ["Executor", "LogSink", "Process", "ProcessSpec", "SetupError"]

#: Receives each output line as it comes: ``(stream, line)``, stream being stdout, stderr or agent.
LogSink = Callable[[str, str], None]


class SetupError(Exception):
    """An attempt could not start: ``reason`` is machine-readable, the message says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class ProcessSpec:
    """What to run, where, and the most it may use (``limits``: ``None``, not limited);
    ``service``: the ports it serves and how to tell it answers."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    limits: Limits | None = None
    service: ServiceSpec | None = None


class Process(Protocol):
    """A started attempt."""

    @property
    def pid(self) -> int: ...

    @property
    def endpoints(self) -> dict[str, str]:
        """A service's URLs by declared port (empty for a job)."""
        ...

    async def ready(self, timeout: float) -> bool:
        """Wait until a service answers (``True`` at once for a job); ``False`` when the
        process ended first, :class:`TimeoutError` after ``timeout`` seconds."""
        ...

    async def wait(self) -> int:
        """The exit code (negative: killed by that signal), once every output line is read."""
        ...

    async def stop(self, grace: float) -> None:
        """Ask it to end (SIGTERM), force it after ``grace`` seconds; returns once it is gone."""
        ...


class Executor(Protocol):
    async def prepare(self, folder: Path, steps: Sequence[InitStep], log: LogSink) -> None:
        """Create ``folder`` and carry out the init steps; :class:`SetupError` on failure."""
        ...

    async def start(self, spec: ProcessSpec, log: LogSink) -> Process:
        """Start the process, streaming its output to ``log`` (a service on ports of the
        executor's choosing, its placeholders filled in); :class:`SetupError` on failure."""
        ...

    async def reap(self, pid: int, started_at: datetime | None) -> bool:
        """End what is left of a process of an earlier agent life; ``True`` if it was alive."""
        ...
