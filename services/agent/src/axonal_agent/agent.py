"""What one agent process holds in memory: its slots, the attempts under way, the runs asked
to stop and its background tasks. The ``executions`` table holds the rest, so a restarted
agent rebuilds nothing from here (see :mod:`axonal_agent.runs.lifecycle`)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from pathlib import Path

from axonal_agent.domain.resources import Resources, SlotLedger
from axonal_agent.ports import Process
from axonal_events.commands import ExecuteRun

__all__ = ["REMEMBERED_STOPS", "Agent", "Attempt", "attempt_key"]

#: Runs asked to stop that are remembered, so that a command arriving later never starts.
REMEMBERED_STOPS = 1000


def attempt_key(run_uuid: str, attempt: int) -> str:
    return f"{run_uuid}:{attempt}"


@dataclass
class Attempt:
    """One attempt under way: its command, its folder and, once started, its process."""

    command: ExecuteRun
    folder: Path
    correlation_id: str | None
    process: Process | None = None
    stopping: bool = False
    shutting_down: bool = False
    detached: bool = False
    stop_task: asyncio.Task[None] | None = field(default=None, repr=False)

    @property
    def key(self) -> str:
        return attempt_key(self.command.run_uuid, self.command.attempt)

    @property
    def project(self) -> str:
        return f"{self.command.owner}/{self.command.project}"

    @property
    def outputs_file(self) -> Path:
        return self.folder / "outputs.json"

    def request_stop(self, grace: float) -> None:
        """Stop on request: at once if the process runs (SIGKILL ``grace`` seconds after
        SIGTERM), before it starts otherwise."""
        self.stopping = True
        if self.process is not None and self.stop_task is None:
            self.stop_task = asyncio.create_task(self.process.stop(grace))

    def detach(self) -> None:
        """The agent stops and leaves the started process running, for its next life to
        adopt: no final report is made."""
        self.detached = True
        if self.process is not None and self.stop_task is None:
            self.stop_task = asyncio.create_task(self.process.detach())


class Agent:
    """The agent's memory, one per process (``ctx.agent``)."""

    def __init__(self, slots: Resources) -> None:
        self.ledger = SlotLedger(slots)
        self.attempts: dict[str, Attempt] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}  # one per attempt under way
        self.cleanups: dict[str, asyncio.Task[None]] = {}  # one timer per folder to delete
        self.heartbeat: asyncio.Task[None] | None = None
        #: set once what an earlier life left is reconciled; cleared when the agent stops
        self.ready = asyncio.Event()
        self._stopped: dict[str, None] = {}  # runs asked to stop, oldest first

    def remember_stop(self, run_uuid: str) -> None:
        """``run_uuid`` was asked to stop: an attempt of it arriving later never starts."""
        self._stopped[run_uuid] = None
        while len(self._stopped) > REMEMBERED_STOPS:
            del self._stopped[next(iter(self._stopped))]

    def stop_requested(self, run_uuid: str) -> bool:
        return run_uuid in self._stopped

    def attempts_of(self, run_uuid: str) -> list[Attempt]:
        return [a for a in self.attempts.values() if a.command.run_uuid == run_uuid]

    def runs(self) -> list[str]:
        """The runs under way here, sorted."""
        return sorted({a.command.run_uuid for a in self.attempts.values()})
