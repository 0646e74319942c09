"""Queue admission: per-queue concurrency, per-project concurrency (a project's quota), higher
priority first, FIFO within a priority. A run of a project at its limit stays queued."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
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
    project: str = ""  # ``owner/name``


def admit(
    waiting: Sequence[Waiting],
    *,
    active: int,
    concurrency: int | None,
    room: Mapping[str, int] | None = None,
) -> list[str]:
    """The runs to start now, in order: as many as free slots allow (all if unbounded), and
    no more of a project than its ``room`` (projects not in it are unbounded)."""
    ordered = sorted(waiting, key=lambda w: (-w.priority, w.queued_at, w.seq))
    free = len(ordered) if concurrency is None else max(0, concurrency - active)
    left = dict(room or {})
    chosen: list[str] = []
    for run in ordered:
        if len(chosen) >= free:
            break
        if run.project in left:
            if left[run.project] <= 0:
                continue
            left[run.project] -= 1
        chosen.append(run.uuid)
    return chosen
