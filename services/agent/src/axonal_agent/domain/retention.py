"""termination.ttl: how long an attempt's folder is still kept."""

from __future__ import annotations

from datetime import datetime

__all__ = ["seconds_left"]


def seconds_left(deadline: datetime, now: datetime) -> float:
    """Seconds until ``deadline`` (0 when it passed: delete at once)."""
    return max(0.0, (deadline - now).total_seconds())
