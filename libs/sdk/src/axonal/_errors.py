"""The errors of run tracking, and the hint they give (no other module of the SDK needed)."""

from __future__ import annotations

__all__ = ["NO_RUN_HINT", "NotInRunError", "TrackingError"]

NO_RUN_HINT = (
    "call axonal.tracking.init(project='owner/name') first, or run the code with "
    "`axonal run` (inside a run an Axonal agent started)"
)


class NotInRunError(RuntimeError):
    """Raised when tracking is used outside any run: not started by an agent, no ``init()``."""


class TrackingError(RuntimeError):
    """The api refused a change of the run, or stayed unreachable."""
