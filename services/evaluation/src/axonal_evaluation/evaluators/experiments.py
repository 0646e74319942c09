"""Rules on experiments: each item an experiment runs on one of a rule's datasets gets one
job of the rule as it is linked (through ingested traces or the dataset-run-items endpoint),
due after the rule's delay so the item's late spans arrive first. So an experiment is
evaluated as it runs, and has its scores when it finishes; the job also reads the dataset
item (``dataset_item.expected_output``)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from axonal_bus.outbox import PendingEvents
from axonal_db import Connection
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import store as datasets
from axonal_evaluation.domain.rules import job_id, sampled, target_key
from axonal_evaluation.evaluators import store
from axonal_evaluation.evaluators.online import insert_jobs
from axonal_events.datasets import RunItem
from axonal_events.evaluators import EvalRule

__all__ = ["item_job", "item_jobs", "plan_items"]


def item_job(rule: EvalRule, item: RunItem, due: datetime) -> store.NewJob:
    """The one job ``rule`` has for a run item (its trace, or its observation for an
    observation rule when the item names one)."""
    observation = item.observation_id if rule.target == "observation" else None
    key = target_key(item.trace_id, observation)
    return store.NewJob(
        job_id(rule.id, key),
        rule.project_id,
        rule.id,
        key,
        item.trace_id,
        observation,
        due,
        item.dataset_item_id,
        item.dataset_run_id,
    )


def plan_items(
    rules: Sequence[EvalRule], names: set[str], items: Sequence[RunItem], now: datetime
) -> list[store.NewJob]:
    """The jobs of the rules on a dataset (``names``: its name and id) for its run items,
    sampled as online jobs are."""
    jobs = []
    for rule in rules:
        if not names & set(rule.filter.datasets):
            continue
        due = now + timedelta(seconds=rule.delay_seconds)
        for item in items:
            job = item_job(rule, item, due)
            if sampled(rule.sampling, rule.id, job.target_key):
                jobs.append(job)
    return sorted(jobs, key=lambda job: (job.rule_id, job.target_key))


async def item_jobs(
    ctx: Context,
    conn: Connection,
    pending: PendingEvents,
    project_id: str,
    dataset_id: str,
    items: Sequence[RunItem],
) -> list[str]:
    """Insert the jobs of newly linked run items of one dataset in ``conn``'s transaction
    (publish ``pending`` once it commits); the ids of those made now."""
    rules = [r for r in await store.active_rules(conn, project_id) if r.filter.datasets]
    if not rules or not items:
        return []
    dataset = await datasets.find_dataset(conn, project_id, id=dataset_id)
    if dataset is None:
        return []
    planned = plan_items(rules, {dataset.name, dataset.id}, items, datetime.now(UTC))
    return await insert_jobs(ctx, conn, pending, planned)
