"""A finished trial's result: its state for the study and its value; the best trial."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from axonal_optimization.domain.studies import TrialStateName

__all__ = ["Ended", "best_outputs", "trial_result"]


class Ended(Protocol):
    """A stored trial, as the best is chosen among them."""

    @property
    def number(self) -> int: ...
    @property
    def run_uuid(self) -> str: ...
    @property
    def params(self) -> dict[str, Any]: ...
    @property
    def state(self) -> str: ...
    @property
    def value(self) -> float | None: ...


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def trial_result(
    status: str,
    reason: str | None,
    metric: str,
    outputs: Mapping[str, Any],
    latest: Mapping[str, Any],
) -> tuple[TrialStateName, float | None, str | None]:
    """How a trial run that ended with ``status`` counts: ``complete`` with the metric's value
    (its logged output, else its last logged metric value), ``pruned`` when it was stopped for
    that, else ``failed`` with why."""
    if status == "stopped" and reason == "Pruned":
        return "pruned", _number(latest.get(metric)), None
    if status != "succeeded":
        return "failed", None, f"the trial ended {status}"
    for source in (outputs, latest):
        if metric in source:
            value = _number(source[metric])
            if value is None:
                return "failed", None, f"its {metric} is {source[metric]!r}, not a finite number"
            return "complete", value, None
    return "failed", None, f"the trial logged no {metric} (as an output or a metric)"


def best_outputs(metric: str, trials: Sequence[Ended], *, maximize: bool) -> dict[str, Any]:
    """The best complete trial (the first of equals), as a sweep's outputs: ``best_trial``
    (its run), ``best_value``, ``best_params`` and the metric; none when no trial completed."""
    complete = [t for t in trials if t.state == "complete" and t.value is not None]
    if not complete:
        return {}
    sign = -1 if maximize else 1
    best = min(complete, key=lambda t: (sign * (t.value or 0.0), t.number))
    return {
        "best_trial": best.run_uuid,
        "best_value": best.value,
        "best_params": best.params,
        metric: best.value,
    }
