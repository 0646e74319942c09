"""Find and stop the processes of a stack by recorded pid (checked against reuse) or by home."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterable
from pathlib import Path

import psutil

from axonal_stack.state import ProcessRef

__all__ = ["find", "ref_for", "since_boot", "stop_all", "strays"]

_START_SLACK = 0.05
#: Programs a stack starts with its home on the command line.
_OURS = ("nats-server", "postgres", "axonal_stack.supervisor")


def ref_for(pid: int) -> ProcessRef:
    """A reference to the running process ``pid``."""
    return ProcessRef(pid=pid, started=since_boot(psutil.Process(pid)))


def since_boot(proc: psutil.Process) -> float:
    """Seconds after boot ``proc`` started.

    psutil's ``create_time()`` adds the boot time, which follows the wall clock, to the
    kernel's since-boot start; taking the boot time away again leaves a figure that a clock
    step (NTP, a VM resumed) does not move.
    """
    return proc.create_time() - psutil.boot_time()


def find(ref: ProcessRef | None) -> psutil.Process | None:
    """The live process ``ref`` names, or ``None`` when it is gone or its pid was reused."""
    if ref is None:
        return None
    try:
        proc = psutil.Process(ref.pid)
        if abs(since_boot(proc) - ref.started) > _START_SLACK:
            return None
        if proc.status() == psutil.STATUS_ZOMBIE:
            return None
    except psutil.Error:
        return None
    return proc


def strays(home: Path) -> list[psutil.Process]:
    """Stack processes (supervisor, nats-server, postgres) still running for ``home``.

    Matched by their command line naming a path in ``home``; this process and its ancestors
    (``axonal down --home ...``) are never included.
    """
    root = str(home)
    mine = {os.getpid(), *(p.pid for p in psutil.Process().parents())}
    found = []
    for proc in psutil.process_iter(["pid", "cmdline"]):
        cmdline: list[str] = proc.info["cmdline"] or []
        if proc.pid in mine or not any(part in arg for arg in cmdline for part in _OURS):
            continue
        if any(arg == root or arg.startswith(root + os.sep) for arg in cmdline):
            found.append(proc)
    return found


def _signal_for(proc: psutil.Process) -> int:
    # PostgreSQL treats SIGTERM as "smart" shutdown (waits for clients); SIGINT is "fast".
    with contextlib.suppress(psutil.Error):
        if proc.name() == "postgres":
            return signal.SIGINT
    return signal.SIGTERM


def stop_all(processes: Iterable[psutil.Process], timeout: float) -> list[psutil.Process]:
    """Signal each process to stop, wait up to ``timeout``, SIGKILL the rest; return them all."""
    procs = list(processes)
    for proc in procs:
        with contextlib.suppress(psutil.Error):
            proc.send_signal(_signal_for(proc))
    _, alive = psutil.wait_procs(procs, timeout=timeout)
    for proc in alive:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    psutil.wait_procs(alive, timeout=5)
    return procs
