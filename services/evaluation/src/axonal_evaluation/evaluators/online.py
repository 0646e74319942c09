"""Online evaluation: a stored batch of traces becomes jobs of the rules its traces match.

Jobs are inserted with the inbox record of the event, in one transaction, each with the
command that runs it (through the outbox). A (rule, target) pair has one job ever: a
redelivered event, or a later batch of the same trace, adds none.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError, Unavailable
from axonal_bus.inbox import claim
from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_evaluation.context import Context
from axonal_evaluation.domain.rules import (
    JUDGE_TRACE_PREFIX,
    job_id,
    matches,
    sampled,
    target_key,
)
from axonal_evaluation.evaluators import store
from axonal_events import new_event
from axonal_events.catalog.traces import TraceIngested
from axonal_events.evaluators import EvalRule, RunEvalJob
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import GetTrace, TraceDetail

__all__ = ["fetch_trace", "ingested", "insert_jobs", "plan", "run_job_subject"]

_RPC_TIMEOUT = 10.0
_FETCHES = 16  # trace reads of one event in flight at once


def run_job_subject(ctx: Context) -> str:
    return ctx.subjects.command(ctx.name, "run_job")


async def fetch_trace(ctx: Context, project_id: str, trace_id: str) -> TraceDetail | None:
    """The trace with its observations; ``None`` if tracking has no such trace."""
    request = GetTrace(project_id=project_id, id=trace_id)
    try:
        return await rpc.call(
            core(ctx.broker), ctx.subjects, Tracking.get_trace, request, timeout=_RPC_TIMEOUT
        )
    except RemoteError as exc:
        if exc.code == "not_found":
            return None
        raise Unavailable(f"tracking cannot read trace {trace_id} now: {exc}") from None


def plan(rules: list[EvalRule], detail: TraceDetail, now: datetime) -> list[store.NewJob]:
    """The jobs ``rules`` make of one trace: each matching, sampled target once; none of the
    platform's own traces (environments ``langfuse-*``: the judges' calls), none of a rule
    on experiments (their items make its jobs as they are linked)."""
    if detail.trace.environment.startswith("langfuse-"):
        return []
    trace = detail.trace.model_dump(mode="json")
    scores = [s.model_dump(mode="json") for s in detail.scores]
    jobs = []
    for rule in rules:
        if rule.filter.datasets:
            continue
        targets: list[tuple[dict[str, Any], str | None]] = [(trace, None)]
        if rule.target == "observation":
            targets = [(o.model_dump(mode="json"), o.id) for o in detail.observations]
        for target, observation_id in targets:
            key = target_key(detail.trace.id, observation_id)
            if not matches(rule.filter, target, trace, scores):
                continue
            if not sampled(rule.sampling, rule.id, key):
                continue
            job = job_id(rule.id, key)
            due = now + timedelta(seconds=rule.delay_seconds)
            jobs.append(
                store.NewJob(
                    job, rule.project_id, rule.id, key, detail.trace.id, observation_id, due
                )
            )
    return jobs


async def ingested(ctx: Context, consumer: str, event_id: str, data: TraceIngested) -> None:
    """Create the jobs of one ``trace.ingested`` event, once."""
    async with ctx.pool.acquire() as db:
        rules = await store.active_rules(db, data.project_id)
    if not rules:
        return
    now = datetime.now(UTC)
    limit = asyncio.Semaphore(_FETCHES)

    async def fetch(trace_id: str) -> TraceDetail | None:
        async with limit:
            return await fetch_trace(ctx, data.project_id, trace_id)

    on_scores = any(rule.filter.scores for rule in rules)  # else new scores change nothing
    wanted = [
        t.trace_id
        for t in data.traces
        if (t.trace_changed or t.observations or (on_scores and t.scores))
        and not t.trace_id.startswith(JUDGE_TRACE_PREFIX)
    ]
    if not wanted:
        return  # nothing a rule could match: no job, nothing to record
    details = await asyncio.gather(*(fetch(trace_id) for trace_id in wanted))
    # in one order, so that two events inserting the same jobs at once wait, never deadlock
    new = sorted(
        (job for d in details if d is not None for job in plan(rules, d, now)),
        key=lambda job: (job.rule_id, job.target_key),
    )
    for detail in details:
        if detail is not None:
            ctx.recent.put(detail)
    pending = PendingEvents(ctx.subjects)
    async with transaction(ctx.pool) as conn:
        if not await claim(conn, consumer, event_id):
            return
        await insert_jobs(ctx, conn, pending, new)
    await ctx.publish_committed(pending)


async def insert_jobs(
    ctx: Context, conn: Connection, pending: PendingEvents, new: list[store.NewJob]
) -> list[str]:
    """Insert the jobs not made before, each with the command that runs it (flushed to the
    outbox in ``conn``'s transaction; publish ``pending`` once it commits); their ids."""
    inserted = await store.insert_jobs(conn, new)
    for inserted_id in inserted:
        run = RunEvalJob(job_id=inserted_id)
        command = new_event(run, source=ctx.source, event_id=inserted_id)
        pending.add(command, subject=run_job_subject(ctx))
    await pending.flush(conn, direct=True)
    return inserted
