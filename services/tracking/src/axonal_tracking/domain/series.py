"""Which steps of a series a read covers, and whether it comes back whole or in buckets."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["ROLLUP_STEPS", "Window", "summary_width", "window"]

#: Steps a stored summary covers (``metric_rollups``: one row per ``step // ROLLUP_STEPS``).
ROLLUP_STEPS = 100


@dataclass(frozen=True)
class Window:
    """Steps ``first`` to ``last`` (both included), in ``buckets`` equal step buckets, or every
    point when ``buckets`` is ``None`` (the steps span fewer than the points asked for)."""

    first: int
    last: int
    buckets: int | None


def window(
    stored: tuple[int, int],
    points: int,
    first_step: int | None = None,
    last_step: int | None = None,
) -> Window | None:
    """The part of a series stored from ``stored[0]`` to ``stored[1]`` that lies between
    ``first_step`` and ``last_step`` (each unbounded when ``None``), to be read as at most
    ``points`` points; ``None`` when no stored step can lie in it."""
    first = stored[0] if first_step is None else max(stored[0], first_step)
    last = stored[1] if last_step is None else min(stored[1], last_step)
    if first > last:
        return None
    return Window(first, last, None if last - first < points else points)


def summary_width(stored: tuple[int, int], points: int) -> int | None:
    """The bucket width (a multiple of :data:`ROLLUP_STEPS`) that reads a whole series stored
    from ``stored[0]`` to ``stored[1]`` from its summaries, as at most ``points`` buckets of
    ``step // width``; ``None`` when the series is too short to need summaries."""
    first, last = stored
    span = last - first + 1
    if span < points * ROLLUP_STEPS:
        return None
    width = ROLLUP_STEPS * -(-span // (points * ROLLUP_STEPS))
    while last // width - first // width + 1 > points:
        width += ROLLUP_STEPS
    return width
