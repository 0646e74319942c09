"""Agent liveness: an agent that missed several heartbeats in a row is lost."""

from __future__ import annotations

from datetime import datetime, timedelta

__all__ = ["MISSED_HEARTBEATS", "deadline", "is_lost"]

MISSED_HEARTBEATS = 3


def deadline(last_seen: datetime, interval_seconds: float) -> datetime:
    """When the agent is lost unless another heartbeat arrives."""
    return last_seen + timedelta(seconds=interval_seconds * MISSED_HEARTBEATS)


def is_lost(last_seen: datetime, interval_seconds: float, now: datetime) -> bool:
    return now >= deadline(last_seen, interval_seconds)
