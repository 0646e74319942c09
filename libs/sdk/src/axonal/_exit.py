"""How the interpreter ends, which decides the status a run ``init()`` made ends with.

An uncaught exception means ``failed`` (``stopped`` for Ctrl-C), and so does a non-zero
``sys.exit``; otherwise ``succeeded``. SIGTERM (``stopped``) is recorded by its handler.
"""

from __future__ import annotations

import atexit
import sys
from collections.abc import Callable
from types import TracebackType
from typing import NoReturn

__all__ = ["exit_status", "set_exit_status", "watch_exit"]

_status: tuple[str, str | None] | None = None


def exit_status() -> tuple[str, str | None]:
    """The status (and message) the interpreter ends with, as far as known now."""
    return _status or ("succeeded", None)


def set_exit_status(status: str, message: str | None) -> None:
    global _status  # noqa: PLW0603 - one interpreter, one way to end
    _status = (status, message)


def watch_exit(at_exit: Callable[[], None]) -> None:
    """Record how the interpreter ends and call ``at_exit`` then (installed once)."""
    if getattr(sys.excepthook, "_axonal", False):
        return
    previous = sys.excepthook

    def hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if issubclass(kind, KeyboardInterrupt):
            set_exit_status("stopped", "interrupted")
        else:
            set_exit_status("failed", f"{kind.__name__}: {value}")
        previous(kind, value, tb)

    previous_exit = sys.exit

    def exit_hook(code: str | int | None = None) -> NoReturn:
        if code not in (None, 0):  # sys.exit(1) or sys.exit("message"): a failure
            set_exit_status("failed", f"exit code {code}" if isinstance(code, int) else str(code))
        previous_exit(code)

    hook._axonal = True  # type: ignore[attr-defined]
    sys.excepthook = hook
    sys.exit = exit_hook
    atexit.register(at_exit)
