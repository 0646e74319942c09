"""The status of a pipeline (DAG or matrix) from its children's statuses (spec §4.2)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from axonal_events import DONE_STATUSES, RunStatus

__all__ = ["ADAPTIVE", "EARLY_STOP_OUTCOME", "is_adaptive", "pipeline_status", "suggested_all"]

#: Matrix kinds whose trials the optimization service suggests as results come in.
ADAPTIVE = frozenset({"bayes", "hyperband", "tpe", "hyperopt", "iterative"})


def is_adaptive(kind: str, compiled: Mapping[str, Any]) -> bool:
    """Whether a run (its kind and compiled operation) is an adaptive sweep."""
    matrix = compiled.get("matrix") or {}
    return kind == "matrix" and matrix.get("kind") in ADAPTIVE


def suggested_all(compiled: Mapping[str, Any]) -> bool:
    """Whether an adaptive sweep's last trials have been suggested (it may then end)."""
    return bool((compiled.get("matrix") or {}).get("suggested_all"))


#: Why a pipeline was stopped early -> the final status it takes.
EARLY_STOP_OUTCOME = {
    "FailureEarlyStopping": RunStatus.FAILED,
    "MetricEarlyStopping": RunStatus.SUCCEEDED,
}


def pipeline_status(
    children: Iterable[RunStatus], *, stopping_reason: str | None = None
) -> RunStatus | None:
    """``None`` while a child is not done; else failed if any failed, stopped if all stopped
    (or the pipeline was being stopped), else succeeded. An early stop decides on its own."""
    statuses = list(children)
    if any(s not in DONE_STATUSES for s in statuses):
        return None
    if stopping_reason is not None:
        return EARLY_STOP_OUTCOME.get(stopping_reason, RunStatus.STOPPED)
    if any(s is RunStatus.FAILED for s in statuses):
        return RunStatus.FAILED
    if statuses and all(s is RunStatus.STOPPED for s in statuses):
        return RunStatus.STOPPED
    return RunStatus.SUCCEEDED
