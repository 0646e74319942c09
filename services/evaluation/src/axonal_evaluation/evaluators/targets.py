"""What an evaluator reads of a job's target: the trace (or one observation of it, with its
trace under ``trace``) and, for an experiment's item, the dataset item under
``dataset_item``. Selectors such as ``output`` or ``dataset_item.expected_output`` read it."""

from __future__ import annotations

from typing import Any

from axonal_evaluation.context import Context
from axonal_evaluation.datasets import store as datasets
from axonal_evaluation.evaluators.online import fetch_trace
from axonal_events.evaluators import EvalJob
from axonal_events.trace_reads import TraceDetail

__all__ = ["TargetMissing", "document"]


class TargetMissing(LookupError):
    """The job's trace, observation or dataset item is not stored (the message says which)."""


def _of_trace(detail: TraceDetail, observation_id: str | None) -> tuple[dict[str, Any], str]:
    trace = detail.trace.model_dump(mode="json")
    if observation_id is None:
        observations = [o.model_dump(mode="json") for o in detail.observations]
        return {**trace, "observations": observations}, detail.trace.environment
    for observation in detail.observations:
        if observation.id == observation_id:
            return {**observation.model_dump(mode="json"), "trace": trace}, observation.environment
    raise TargetMissing(f"observation {observation_id} is not in trace {detail.trace.id}")


async def document(ctx: Context, job: EvalJob, *, fresh: bool) -> tuple[dict[str, Any], str]:
    """The job's target as selectors read it, and its environment. ``fresh``: read the trace
    as it is now (a delayed job: late spans included), else a read that matched it may do."""
    detail = None if fresh else ctx.recent.take(job.trace_id)
    detail = detail or await fetch_trace(ctx, job.project_id, job.trace_id)
    if detail is None:
        raise TargetMissing(f"trace {job.trace_id} is not stored")
    found, environment = _of_trace(detail, job.observation_id)
    if job.dataset_item_id is not None:
        async with ctx.pool.acquire() as conn:
            item = await datasets.current_item(conn, job.project_id, job.dataset_item_id)
        if item is None:
            raise TargetMissing(f"dataset item {job.dataset_item_id} is deleted")
        found["dataset_item"] = item.model_dump(mode="json")
    return found, environment
