"""The status of a pipeline (DAG or matrix) from its children's statuses (spec §4.2)."""

from __future__ import annotations

from collections.abc import Iterable

from axonal_events import DONE_STATUSES, RunStatus

__all__ = ["EARLY_STOP_OUTCOME", "pipeline_status"]

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
