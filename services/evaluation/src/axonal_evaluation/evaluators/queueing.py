"""A rule that sends its targets for review: each job puts its trace (or observation) in the
rule's annotation queue, once (adding it again finds the item already there)."""

from __future__ import annotations

from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.evaluators.outcomes import Queued
from axonal_evaluation.queues.review import add_to_queue
from axonal_events.annotation_queues import QueueObjectType
from axonal_events.evaluators import EvalJob, EvalRule

__all__ = ["send"]


async def send(ctx: Context, job: EvalJob, rule: EvalRule) -> Queued:
    assert rule.queue_id is not None
    kind = QueueObjectType.OBSERVATION if job.observation_id else QueueObjectType.TRACE
    async with transaction(ctx.pool) as conn:
        item = await add_to_queue(
            conn, job.project_id, rule.queue_id, job.observation_id or job.trace_id, kind
        )
    return Queued(item.id)
