"""When to try a failed delivery again: a long schedule, each step with full jitter.

The default follows Standard Webhooks / Svix: after the first attempt fails, retry after
5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h, then give up (eight attempts over about a day
and a half at most). Each wait is drawn uniformly from ``[0, step]`` ("full jitter"), so
deliveries that failed together spread out instead of hitting a recovering receiver at once.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

__all__ = ["DEFAULT_SCHEDULE", "next_delay"]

DEFAULT_SCHEDULE: tuple[float, ...] = (5.0, 300.0, 1800.0, 7200.0, 18000.0, 36000.0, 36000.0)


def next_delay(
    schedule: Sequence[float],
    failed_attempts: int,
    draw: Callable[[float, float], float] = random.uniform,
) -> float | None:
    """Seconds before the next attempt after ``failed_attempts`` (>= 1) failures in a row;
    ``None`` when the schedule is spent and the delivery is dead."""
    if failed_attempts < 1:
        raise ValueError("failed_attempts counts from 1")
    if failed_attempts > len(schedule):
        return None
    return draw(0.0, schedule[failed_attempts - 1])
