"""Running one due job: mark it ``running``, then do what its rule does with the target.

- an LLM template: ask the judge, and end the job with the score or why not;
- a code template: submit the run that evaluates it (its ``run.done`` ends the job);
- a queue: put the target in the annotation queue, and end the job.

A job interrupted (the service killed) runs again when its command is redelivered; one
whose code run was submitted waits for that run instead.
"""

from __future__ import annotations

from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.evaluators import code, llm, queueing, store
from axonal_evaluation.evaluators.outcomes import Failed, Outcome, Queued, finish
from axonal_events.evaluators import EvalJob

__all__ = ["give_up", "run"]


async def give_up(ctx: Context, job: EvalJob, reason: str) -> None:
    """Fail ``job`` with ``reason``: its last delivery failed unexpectedly."""
    async with ctx.pool.acquire() as conn:
        found = await store.rule_with_template(conn, job.project_id, job.rule_id)
    if found is not None:
        await finish(ctx, job, *found, Failed(reason))


async def run(ctx: Context, job: EvalJob) -> None:
    """Run ``job`` (already due) and record how it ended."""
    if job.run_uuid is not None:
        return  # its code run was submitted: that run's end ends the job
    async with ctx.pool.acquire() as conn:
        found = await store.rule_with_template(conn, job.project_id, job.rule_id)
    if found is None:
        return  # deleted with its jobs
    rule, template = found
    async with ctx.rule_cap(rule.id, rule.max_concurrency):
        async with transaction(ctx.pool) as conn:
            started = await store.start_job(conn, job.id)
        if started is None:
            return  # another delivery finished it
        outcome: Outcome | Queued | Failed
        if template is None:
            outcome = await queueing.send(ctx, started, rule)
        elif template.kind == "code":
            failed = await code.start(ctx, started, rule, template)
            if failed is None:
                return
            outcome = failed
        else:
            outcome = await llm.evaluate(ctx, started, rule, template)
    await finish(ctx, started, rule, template, outcome)
