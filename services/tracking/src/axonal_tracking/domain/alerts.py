"""Alert rules evaluated point by point: one crossing per excursion, not one per point.

A rule fires when ``for_points`` consecutive points breach the threshold; it then stays
firing, emitting nothing more, until a point comes back past the threshold by at least
``hysteresis`` (``loss > 5`` with hysteresis 1 clears at ``loss <= 4``). Points are taken in
step order; a point at or below the last step already seen is ignored, so a redelivered
batch changes nothing (and a batch that arrives after a later one is not evaluated).

``is_nan`` and ``is_inf`` rules (no threshold, no hysteresis) breach on a NaN or an infinite
value and clear on any other. A NaN neither breaches nor clears a threshold rule: it breaks a
streak of ``loss > 5``, and a firing ``loss > 5`` stays firing through it.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from axonal_events import Comparison

__all__ = ["AlertRule", "AlertState", "Crossing", "advance"]

_THRESHOLD_CHECKS: dict[Comparison, Callable[[float, float], bool]] = {
    Comparison.GT: operator.gt,
    Comparison.GTE: operator.ge,
    Comparison.LT: operator.lt,
    Comparison.LTE: operator.le,
    Comparison.EQ: operator.eq,
}


@dataclass(frozen=True, slots=True)
class AlertRule:
    id: str
    project: str
    metric: str
    comparison: Comparison
    threshold: float | None  # None for is_nan and is_inf
    for_points: int = 1
    hysteresis: float = 0.0

    def breached(self, value: float) -> bool:
        match self.comparison:
            case Comparison.IS_NAN:
                return math.isnan(value)
            case Comparison.IS_INF:
                return math.isinf(value)
        return _THRESHOLD_CHECKS[self.comparison](value, self._threshold)

    def cleared(self, value: float) -> bool:
        """Back on the safe side by the hysteresis margin."""
        h = self.hysteresis
        match self.comparison:
            case Comparison.IS_NAN | Comparison.IS_INF:
                return not self.breached(value)
            case Comparison.GT | Comparison.GTE:
                return value <= self._threshold - h and not (h == 0 and self.breached(value))
            case Comparison.LT | Comparison.LTE:
                return value >= self._threshold + h and not (h == 0 and self.breached(value))
            case Comparison.EQ:
                return abs(value - self._threshold) > h

    @property
    def _threshold(self) -> float:
        if self.threshold is None:
            raise ValueError(f"a {self.comparison.value} rule needs a threshold")
        return self.threshold


@dataclass(frozen=True, slots=True)
class AlertState:
    """Where one rule stands for one run."""

    streak: int = 0
    firing: bool = False
    last_step: int = -1


@dataclass(frozen=True, slots=True)
class Crossing:
    step: int
    value: float


def advance(
    rule: AlertRule, state: AlertState, points: Iterable[tuple[int, float]]
) -> tuple[AlertState, list[Crossing]]:
    """The state after ``points`` (step, value) and the crossings they caused."""
    crossings: list[Crossing] = []
    for step, value in sorted(points):
        if step <= state.last_step:
            continue
        state = replace(state, last_step=step)
        if state.firing:
            if rule.cleared(value):
                state = replace(state, firing=False, streak=0)
            continue
        streak = state.streak + 1 if rule.breached(value) else 0
        if streak >= rule.for_points:
            crossings.append(Crossing(step, value))
            state = replace(state, firing=True, streak=0)
        else:
            state = replace(state, streak=streak)
    return state, crossings
