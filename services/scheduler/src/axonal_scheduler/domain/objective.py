"""The metric a matrix optimizes: its search's ``metric`` (bayes, hyperband, tpe, iterative),
else the metric of its metric early stopping (grid, random and mapping name none otherwise)."""

from __future__ import annotations

from typing import Any

from axonal_events.runs import Objective

__all__ = ["objective"]


def objective(compiled: dict[str, Any], early_stopping: list[dict[str, Any]]) -> Objective | None:
    """The objective of a run whose ``compiled`` operation has a matrix, ``None`` for others
    and for a matrix that names no metric. An unset optimization is ``maximize``."""
    matrix = compiled.get("matrix")
    if not isinstance(matrix, dict):
        return None
    metric = (matrix.get("search_space") or {}).get("metric")
    if isinstance(metric, dict) and metric.get("name"):
        return _objective(metric["name"], metric.get("optimization"))
    for policy in early_stopping:
        if policy.get("kind") == "metric_early_stopping" and policy.get("metric"):
            return _objective(policy["metric"], policy.get("optimization"))
    return None


def _objective(metric: object, optimization: object) -> Objective:
    direction = str(optimization or "maximize").lower()
    return Objective(
        metric=str(metric), optimization="minimize" if direction == "minimize" else "maximize"
    )
