"""How the local executor holds a process to its run's limits: set in the child, before exec.

``limits.memory`` becomes the process's address-space limit (``RLIMIT_AS``, soft and hard, so
the run cannot raise it again); ``limits.cpu`` its cpu affinity: ``ceil(cpu)`` of the cores
the agent may use, the least busy ones (Linux only). A :class:`ChildLimits` sets both as the
``preexec_fn`` of the forked child, so they hold from the run's first instruction and every
process it starts inherits them. That is the most robust choice: applying them from the agent
after the start (``prlimit``, ``sched_setaffinity(pid)``) races the run's first allocations and
misses what it forks meanwhile; an exec wrapper (a launcher interpreter, ``prlimit`` or
``taskset``) costs a process start or tools the host may lack, and turns a missing command into
an exit code instead of a start error. ``preexec_fn`` is unsafe in a threaded parent only when
it takes a lock another thread may hold (imports, logging): this one makes two system calls
with arguments computed before the fork.

It is a process-level isolation, not a cgroup: each process of the run may reserve
``limits.memory`` of address space (reserved, not resident: a runtime that maps large areas up
front, such as the JVM, CUDA or many threads' malloc arenas, needs a larger limit than what it
uses), and a process may widen its own affinity again within the agent's cores.
"""

from __future__ import annotations

import os
import resource
from collections.abc import Mapping
from dataclasses import dataclass

from axonal_agent.domain.resources import Limits, format_memory, pick_cores

__all__ = ["ChildLimits", "child_limits"]


@dataclass(frozen=True, slots=True)
class ChildLimits:
    """What the child sets before exec (it is called as the ``preexec_fn``)."""

    address_space: int | None = None
    cores: tuple[int, ...] = ()

    def __call__(self) -> None:
        if self.address_space is not None:
            resource.setrlimit(resource.RLIMIT_AS, (self.address_space, self.address_space))
        if self.cores:
            os.sched_setaffinity(0, self.cores)


def child_limits(limits: Limits, load: Mapping[int, int]) -> tuple[ChildLimits, str]:
    """The limits to set in the child and the line that says which (``load``: processes
    pinned to each core)."""
    parts: list[str] = []
    address_space: int | None = None
    if limits.memory is not None:
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        address_space = (
            limits.memory if hard == resource.RLIM_INFINITY else min(limits.memory, hard)
        )
        parts.append(f"memory {format_memory(address_space)} (address space)")
    cores: tuple[int, ...] = ()
    if limits.cpu is not None:
        if hasattr(os, "sched_setaffinity"):
            cores = tuple(pick_cores(limits.cpu, os.sched_getaffinity(0), load))
            which = ",".join(map(str, cores))
            parts.append(f"cpu {limits.cpu:g} (affinity: core{'s' * (len(cores) > 1)} {which})")
        else:
            parts.append(f"cpu {limits.cpu:g} not applied (no cpu affinity on this platform)")
    return ChildLimits(address_space, cores), f"limits: {', '.join(parts)}"
