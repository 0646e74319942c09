"""Code evaluators: a job starts the run that evaluates its target (submitted to the
scheduler through the outbox, with a run uuid derived from the job, so a redelivery submits
nothing twice), and ends when that run's ``run.done`` arrives (durable
``evaluation-evaluator-runs``) with the score in its outputs, or with why there is none."""

from __future__ import annotations

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_bus.outbox import PendingEvents
from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.domain.code_evaluators import operation, outcome, run_uuid, signature
from axonal_evaluation.domain.code_evaluators import values_of as code_values
from axonal_evaluation.domain.selectors import MissingField
from axonal_evaluation.evaluators import store
from axonal_evaluation.evaluators.outcomes import Failed, Outcome, finish
from axonal_evaluation.evaluators.targets import TargetMissing, document
from axonal_events import new_event
from axonal_events.catalog.run import RunDone, RunStatus
from axonal_events.commands import SubmitRun
from axonal_events.evaluators import EvalJob, EvalRule, EvalTemplate
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun

__all__ = ["run_done", "start"]


async def start(
    ctx: Context, job: EvalJob, rule: EvalRule, template: EvalTemplate
) -> Failed | None:
    """Submit the run evaluating ``job`` (started); why it cannot, as a :class:`Failed`."""
    assert template.code is not None
    try:
        target, environment = await document(ctx, job, fresh=bool(rule.delay_seconds))
        values = code_values(signature(template.code), rule.mapping, target)
    except (TargetMissing, MissingField, ValueError) as exc:
        return Failed(str(exc))
    run = run_uuid(job.id)
    owner, _, project = rule.project.partition("/")
    text = operation(
        rule_name=rule.name,
        job_id=job.id,
        code=template.code,
        runtime=template.runtime,
        values=values,
    )
    submit = SubmitRun(run_uuid=run, owner=owner, project=project, files=[text])
    pending = PendingEvents(ctx.subjects)
    async with transaction(ctx.pool) as conn:
        await store.set_run(conn, job.id, run, environment)
        command = new_event(submit, source=ctx.source, event_id=run, project=rule.project)
        pending.add(command, subject=ctx.subjects.command("scheduler", "submit"))
        await pending.flush(conn, direct=True)
    await ctx.publish_committed(pending)
    return None


async def _why_not(ctx: Context, done: RunDone) -> str:
    """The run's own reason for ending as it did (its timeout, say), when it gives one."""
    try:
        info = await rpc.call(
            core(ctx.broker), ctx.subjects, Scheduler.get_run, GetRun(run_uuid=done.run_uuid)
        )
    except RemoteError:
        return ""
    return f": {info.message}" if info.message else (f": {info.reason}" if info.reason else "")


async def run_done(ctx: Context, done: RunDone) -> None:
    """End the job that waited for this run, if any."""
    async with ctx.pool.acquire() as conn:
        found = await store.job_of_run(conn, done.run_uuid)
        if found is None:
            return
        job, environment = found
        rule_template = await store.rule_with_template(conn, job.project_id, job.rule_id)
    if rule_template is None:
        return  # the rule was deleted with its jobs
    rule, template = rule_template
    result: Outcome | Failed
    try:
        score, reasoning = outcome(done.status.value, done.outputs)
        result = Outcome(score, reasoning, dict(done.outputs), environment)
    except ValueError as exc:
        detail = "" if done.outputs.get("error") else await _why_not(ctx, done)
        if done.status is RunStatus.SUCCEEDED:
            detail = ""
        reason = f"{exc}{detail} (run {done.run_uuid}: `axonal ops logs {done.run_uuid}`)"
        result = Failed(reason, dict(done.outputs) or None)
    await finish(ctx, job, rule, template, result)
