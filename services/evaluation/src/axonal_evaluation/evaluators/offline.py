"""Offline evaluation: a rule's evaluator applied, on request, to every item of a dataset run
(an experiment): one job per item's trace (or its observation, for an observation rule), which
reads the dataset item too. A rule that names the dataset does this as items are linked
(:mod:`~axonal_evaluation.evaluators.experiments`); this is the request for any other.

The rule's filter and sampling are for new traces; here the run names the targets. Jobs are
the online ones: a target the rule judged before (online, or an earlier request) is not
judged again, so asking twice adds nothing.
"""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus.errors import NotFound
from axonal_bus.outbox import PendingEvents
from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import queries
from axonal_evaluation.evaluators import store
from axonal_evaluation.evaluators.experiments import item_job
from axonal_evaluation.evaluators.online import insert_jobs
from axonal_events.evaluators import EvaluateDatasetRun, OfflineEvaluation

__all__ = ["evaluate_dataset_run"]


async def evaluate_dataset_run(ctx: Context, request: EvaluateDatasetRun) -> OfflineEvaluation:
    now = datetime.now(UTC)
    pending = PendingEvents(ctx.subjects)
    async with transaction(ctx.pool) as conn:
        rule = await store.rule(conn, request.project_id, request.rule)
        if rule is None:
            raise NotFound(f"Rule not found: '{request.rule}'")
        runs = await queries.runs_by_id(conn, request.project_id, [request.dataset_run_id])
        if not runs:
            raise NotFound(f"Dataset run not found: '{request.dataset_run_id}'")
        items = await queries.run_items(conn, request.dataset_run_id)
        new = [item_job(rule, item, now) for item in items]
        new.sort(key=lambda job: job.target_key)  # one order: concurrent requests never deadlock
        inserted = await insert_jobs(ctx, conn, pending, new)
    await ctx.publish_committed(pending)
    return OfflineEvaluation(
        rule_id=rule.id,
        dataset_run_id=request.dataset_run_id,
        items=len(items),
        job_ids=[job.id for job in new],
        created=len(inserted),
    )
