"""A finished trial's result: its state for the study and its value."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from axonal_optimization.domain.studies import TrialStateName

__all__ = ["trial_result"]


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
