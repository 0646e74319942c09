"""Queue admission: per-queue concurrency, higher priority first, FIFO within a priority."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

__all__ = ["Waiting", "admit"]


@dataclass(frozen=True, slots=True)
class Waiting:
    """A queued run waiting for a slot; ``seq`` breaks ties between equal timestamps."""

    uuid: str
    priority: int
    queued_at: datetime
    seq: int = 0


def admit(waiting: Sequence[Waiting], *, active: int, concurrency: int | None) -> list[str]:
    """The runs to start now, in order: as many as free slots allow (all if unbounded)."""
    ordered = sorted(waiting, key=lambda w: (-w.priority, w.queued_at, w.seq))
    if concurrency is None:
        return [w.uuid for w in ordered]
    free = max(0, concurrency - active)
    return [w.uuid for w in ordered[:free]]
