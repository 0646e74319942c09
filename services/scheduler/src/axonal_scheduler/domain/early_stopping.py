"""Early stopping of a matrix or DAG: by the share of failed runs or by a metric."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from axonal_events import RunStatus

__all__ = ["failure_stop", "metric_stop", "should_stop"]


def failure_stop(policy: Mapping[str, Any], statuses: Sequence[RunStatus]) -> bool:
    """``failure_early_stopping``: at least ``percent`` % of all runs failed."""
    if not statuses:
        return False
    failed = sum(1 for s in statuses if s is RunStatus.FAILED)
    return 100.0 * failed / len(statuses) >= float(policy.get("percent", 100))


def metric_stop(policy: Mapping[str, Any], outputs: Mapping[str, Any]) -> bool:
    """``metric_early_stopping``: the run's ``metric`` crossed ``value`` in its direction."""
    metric = policy.get("metric")
    if metric is None or metric not in outputs:
        return False
    try:
        seen, target = float(outputs[metric]), float(policy["value"])
    except (TypeError, ValueError, KeyError):
        return False
    if str(policy.get("optimization", "maximize")).lower() == "minimize":
        return seen <= target
    return seen >= target


def should_stop(
    policies: Sequence[Mapping[str, Any]],
    statuses: Sequence[RunStatus],
    outputs: Mapping[str, Any] | None = None,
) -> str | None:
    """The reason to stop (``FailureEarlyStopping``/``MetricEarlyStopping``) or ``None``."""
    for policy in policies:
        kind = policy.get("kind")
        if kind == "failure_early_stopping" and failure_stop(policy, statuses):
            return "FailureEarlyStopping"
        if kind == "metric_early_stopping" and outputs and metric_stop(policy, outputs):
            return "MetricEarlyStopping"
    return None
