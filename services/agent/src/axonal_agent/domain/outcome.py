"""What a finished attempt reports: status, reason and message (pure)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from axonal_agent.domain.resources import format_memory

__all__ = ["LAST_LINES", "Cause", "Verdict", "verdict"]

LAST_LINES = 20
#: What a process that failed to allocate prints: Python (numpy's errors are subclasses), the
#: C library's ENOMEM message (shells, tools), C++.
_OUT_OF_MEMORY = ("MemoryError", "Cannot allocate memory", "std::bad_alloc")


@dataclass(frozen=True, slots=True)
class Cause:
    """Why an executor saw an attempt fail, when it knows more than an exit code (a
    cluster's ``OOMKilled``, ``Evicted``, ``NodeLost``, ``ImagePullBackOff``...)."""

    reason: str
    message: str | None = None


@dataclass(frozen=True, slots=True)
class Verdict:
    status: Literal["succeeded", "failed", "stopped"]
    reason: str | None = None
    message: str | None = None
    exit_code: int | None = None


def verdict(
    exit_code: int | None,
    *,
    stopped: bool,
    timed_out: bool,
    timeout: float | None,
    last_lines: Sequence[str],
    memory_limit: int | None = None,
    cause: Cause | None = None,
) -> Verdict:
    """Stopped wins over a timeout, a timeout over the executor's ``cause`` of a failure,
    that over the exit code.

    A failure under a ``memory_limit`` (bytes) whose last lines say an allocation failed
    starts its message with the limit.
    """
    lines = list(last_lines)[-LAST_LINES:]
    if memory_limit is not None and any(sign in line for line in lines for sign in _OUT_OF_MEMORY):
        limit = format_memory(memory_limit)
        lines.insert(0, f"out of memory under its memory limit of {limit} (address space)")
    tail = "\n".join(lines) or None
    if stopped:
        return Verdict("stopped", "Stopped", "stopped on request", exit_code)
    if timed_out:
        return Verdict(
            "failed", "Timeout", f"the run exceeded its timeout of {timeout:g}s", exit_code
        )
    if cause is not None:
        return Verdict("failed", cause.reason, cause.message, exit_code)
    if exit_code == 0:
        return Verdict("succeeded", exit_code=0)
    if exit_code is not None and exit_code < 0:
        return Verdict(
            "failed", "Killed", f"killed by signal {-exit_code}\n{tail or ''}".strip(), exit_code
        )
    return Verdict("failed", "ExitCode", tail or f"exited with code {exit_code}", exit_code)
