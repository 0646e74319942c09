"""What ``axonal up --detach``, ``status`` and ``down`` do, without any terminal output."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from axonal_stack.lock import is_locked
from axonal_stack.settings import StackSettings
from axonal_stack.state import StackState, read_state, write_state

if TYPE_CHECKING:
    import psutil

__all__ = [
    "StackError",
    "StopReport",
    "current_state",
    "ensure_not_running",
    "start_detached",
    "stop_stack",
]

_POLL = 0.1


class StackError(RuntimeError):
    """A stack command failed; ``hint`` tells the user what to do about it."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


def current_state(settings: StackSettings) -> tuple[StackState, bool]:
    """The recorded state (a blank one when there is none) and whether a supervisor runs."""
    paths = settings.paths
    state = read_state(paths.state) or StackState(
        home=str(settings.home), namespace=settings.namespace, phase="stopped"
    )
    return state, is_locked(paths.lock)


def ensure_not_running(settings: StackSettings) -> None:
    """Raise :class:`StackError` when a stack already runs for this home."""
    state, running = current_state(settings)
    if running:
        pid = state.supervisor.pid if state.supervisor else "?"
        raise StackError(
            f"the stack for {settings.home} is already running (supervisor pid {pid})",
            hint="`axonal status` shows it, `axonal down` stops it; "
            "set AXONAL_HOME (or --home) to run a second stack beside it",
        )


def start_detached(
    settings: StackSettings,
    *,
    timeout: float | None = None,
    on_progress: Callable[[StackState | None], None] | None = None,
) -> StackState:
    """Start the supervisor in the background and wait until every service is healthy."""
    ensure_not_running(settings)
    paths = settings.paths
    paths.create()
    log_path = paths.stack_log
    offset = log_path.stat().st_size if log_path.exists() else 0
    argv = [sys.executable, "-m", "axonal_stack.supervisor", "--home", str(settings.home)]
    if settings.cluster:
        argv.append("--cluster")
    with log_path.open("ab") as log:
        proc = subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # outlives this command and the terminal
        )
    deadline = time.monotonic() + (timeout or settings.startup_timeout + 60)
    while True:
        state = read_state(paths.state)
        ours = (
            state is not None and state.supervisor is not None and state.supervisor.pid == proc.pid
        )
        if on_progress is not None:
            on_progress(state if ours else None)
        if ours and state is not None and state.phase == "running":
            return state
        code = proc.poll()
        if code is not None:
            tail = _log_since(log_path, offset)
            raise StackError(
                f"the stack did not start (supervisor exit code {code}):\n{tail}",
                hint=f"the full log is {log_path}",
            )
        if time.monotonic() > deadline:
            import psutil  # noqa: PLC0415 - `axonal status` imports this module: keep it light

            from axonal_stack.processes import stop_all  # noqa: PLC0415

            stop_all([psutil.Process(proc.pid)], settings.stop_timeout * 2)
            raise StackError(
                f"the stack was not healthy in time:\n{_log_since(log_path, offset)}",
                hint=f"see {log_path} and {paths.logs}/<service>.log",
            )
        time.sleep(_POLL)


def _log_since(path: Path, offset: int, lines: int = 30) -> str:
    try:
        with path.open("rb") as log:
            log.seek(offset)
            text: str = log.read().decode(errors="replace")
    except OSError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(empty log)"


@dataclass
class StopReport:
    """What ``axonal down`` found and stopped: ``role (pid)`` entries."""

    stopped: list[tuple[str, int]] = field(default_factory=list)

    @property
    def anything(self) -> bool:
        return bool(self.stopped)


def stop_stack(settings: StackSettings, *, timeout: float = 30.0) -> StopReport:
    """Stop the supervisor (it stops its children in order), then anything left over."""
    from axonal_stack.processes import find, stop_all, strays  # noqa: PLC0415 - psutil

    paths = settings.paths
    state = read_state(paths.state)
    live = {}
    if state is not None:
        live = {role: proc for role, ref in state.processes().items() if (proc := find(ref))}
    report = StopReport([(role, proc.pid) for role, proc in live.items()])
    supervisor = live.pop("supervisor", None)
    if supervisor is not None:
        stop_all([supervisor], timeout)
    known = {proc.pid for proc in live.values()}
    extra = [proc for proc in strays(settings.home) if proc.pid not in known]
    report.stopped += [(_role(proc), proc.pid) for proc in extra]
    leftovers = [proc for proc in [*live.values(), *extra] if proc.is_running()]
    if leftovers:
        stop_all(leftovers, settings.stop_timeout)
    if state is not None and (report.anything or state.phase not in ("stopped", "failed")):
        write_state(paths.state, state.stopped("stopped by axonal down"))
    return report


def _role(proc: psutil.Process) -> str:
    import psutil  # noqa: PLC0415 - loaded already by stop_stack

    try:
        return str(proc.name())
    except psutil.Error:
        return "process"
