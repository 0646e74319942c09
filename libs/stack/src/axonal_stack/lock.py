"""One supervisor per ``AXONAL_HOME``: an exclusive ``flock`` held for the supervisor's life.

The kernel drops the lock when the process dies, however it dies, so a stale ``stack.json``
never blocks the next ``axonal up``.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

__all__ = ["StackLock", "StackRunningError", "is_locked"]


class StackRunningError(RuntimeError):
    """Another supervisor holds the lock of this home."""


class StackLock:
    """Take with :meth:`acquire`, give back with :meth:`release` (or on process exit)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise StackRunningError(f"a stack already runs for {self.path.parent}") from None
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None


def is_locked(path: Path) -> bool:
    """Whether some process holds the lock at ``path`` right now."""
    if not path.exists():
        return False
    probe = StackLock(path)
    try:
        probe.acquire()
    except StackRunningError:
        return True
    probe.release()
    return False
