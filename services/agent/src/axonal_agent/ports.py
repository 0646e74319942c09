"""The executor port: how an agent prepares and runs one attempt, wherever it runs.

The local executor (:mod:`axonal_agent.adapters.local`) runs processes on the agent's host;
the Kubernetes executor (:mod:`axonal_agent.adapters.kubernetes`) runs the run's images on a
cluster, from the compiled run section (:class:`Launch`), and can re-attach to what it
launched after the agent restarted (:meth:`Executor.adopt`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Literal, Protocol

from axonal_agent.domain.init_steps import InitStep
from axonal_agent.domain.outcome import Cause
from axonal_agent.domain.resources import Limits
from axonal_agent.domain.service import ServiceSpec

__all__ = [
    "Executor",
    "Launch",
    "LogSink",
    "Orphan",
    "Process",
    "ProcessSpec",
    "SetupError",
    "Waiting",
    "WaitingSink",
]

#: Receives each output line as it comes: ``(stream, line)``, stream being stdout, stderr or agent.
LogSink = Callable[[str, str], None]


class SetupError(Exception):
    """An attempt could not start: ``reason`` is machine-readable, the message says why."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


@dataclass(frozen=True, slots=True)
class Launch:
    """An attempt as a cluster executor launches it: the compiled ``run`` section (its
    images run as they are), the run ``context`` (``AXONAL_*``, as
    :func:`~axonal_agent.domain.command.run_context` makes it, before any path is made local
    to the agent's host), ``to_env`` params, the ``timeout``, the ``probe`` of a service, the
    queue it came from, and the attempt's folder on the agent's host (its outputs are written
    to ``outputs_file`` there)."""

    run_uuid: str
    attempt: int
    project: str
    queue: str
    run: Mapping[str, Any]
    context: Mapping[str, str]
    folder: Path
    outputs_file: Path
    to_env: Mapping[str, str] = field(default_factory=dict)
    timeout: float | None = None
    probe: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ProcessSpec:
    """What to run, where, and the most it may use (``limits``: ``None``, not limited);
    ``service``: the ports it serves and how to tell it answers. An executor that runs the
    run's images (``Executor.runs_images``) reads ``launch`` only (``argv`` is empty)."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    limits: Limits | None = None
    service: ServiceSpec | None = None
    launch: Launch | None = None


@dataclass(frozen=True, slots=True)
class Orphan:
    """An attempt an earlier life of this agent left open, to re-attach to: its outputs file
    on this host and the time of the last line it logged (``None``: none)."""

    run_uuid: str
    attempt: int
    queue: str
    outputs_file: Path
    logged_until: datetime | None = None


@dataclass(frozen=True, slots=True)
class Waiting:
    """Why a started attempt does not run (yet, or any more): ``starting``,
    ``unschedulable`` (nothing can take it) or ``warning`` (it cannot run as it is, and may
    recover); ``running`` once it runs again."""

    status: Literal["starting", "unschedulable", "warning", "running"]
    reason: str | None = None
    message: str | None = None


#: Receives each change of a started attempt's :class:`Waiting`.
WaitingSink = Callable[[Waiting], Awaitable[None]]


class Process(Protocol):
    """A started attempt."""

    @property
    def pid(self) -> int | None:
        """Its process id on this host (``None``: it runs elsewhere)."""
        ...

    @property
    def enforces_timeout(self) -> bool:
        """Whether the executor ends it at its timeout itself (else the attempt does)."""
        ...

    @property
    def cause(self) -> Cause | None:
        """Why it failed, once it ended, when the executor knows more than the exit code."""
        ...

    @property
    def endpoints(self) -> dict[str, str]:
        """A service's URLs by declared port (empty for a job)."""
        ...

    async def running(self, changed: WaitingSink) -> bool:
        """Wait until it runs (a local process does at once), telling ``changed`` why it
        waits each time that changes; ``False`` when it ended first."""
        ...

    async def ready(self, timeout: float) -> bool:
        """Wait until a service answers (``True`` at once for a job); ``False`` when the
        process ended first, :class:`TimeoutError` after ``timeout`` seconds."""
        ...

    async def watch(self, changed: WaitingSink) -> None:
        """Once it runs, until it ended: tell ``changed`` each time it stops running as it
        should (``warning``, ``unschedulable``, with why: a service whose replica was lost
        and is being replaced) and when it runs again (``running``)."""
        ...

    async def wait(self) -> int | None:
        """The exit code (negative: killed by that signal; ``None``: unknown), once every
        output line is read."""
        ...

    async def stop(self, grace: float) -> None:
        """Ask it to end (SIGTERM), force it after ``grace`` seconds; returns once it is gone."""
        ...

    async def detach(self) -> None:
        """Stop following it and leave it running (:meth:`wait` then returns): the agent
        stops, and its next life adopts it or ends it."""
        ...


class Executor(Protocol):
    @property
    def runs_images(self) -> bool:
        """Whether it runs the run's images from :attr:`ProcessSpec.launch` (a cluster),
        rather than the container's command on the agent's host."""
        ...

    @property
    def outlives_agent(self) -> bool:
        """Whether what it starts runs on when the agent stops (a cluster's workloads): the
        agent then leaves it for its next life to adopt, else it stops it."""
        ...

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

    async def adopt(self, orphan: Orphan, log: LogSink) -> Process | None:
        """Re-attach to what an earlier agent life launched for ``orphan``, streaming what it
        logs from then on to ``log``; ``None`` when nothing of it is left to follow (a
        local process is never adopted: :meth:`reap` ends it)."""
        ...

    async def sweep(self, keep: Collection[tuple[str, int]]) -> int:
        """Delete what this agent launched for attempts other than ``keep`` (``(run uuid,
        attempt)``); how many workloads it deleted."""
        ...
