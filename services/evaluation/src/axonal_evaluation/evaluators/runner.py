"""Running one job: read the target, fill the template, ask the judge, record the outcome.

The job is marked ``running`` first; its end (``succeeded`` with the score, or ``failed`` with
why) is written in one transaction with the ``score.created`` and ``evaluation.job.done``
events. A job interrupted (the service killed) runs again when its command is redelivered;
the score's id derives from the job's, so it is stored once whatever happens.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_bus.outbox import PendingEvents
from axonal_db import transaction
from axonal_evaluation.connections import store as connections
from axonal_evaluation.context import Context, Pace
from axonal_evaluation.domain import secrets
from axonal_evaluation.domain.judging import (
    OUTPUT_SCHEMA,
    BadAnswer,
    check_answer,
    render,
    score_id,
    variables,
    variables_of,
)
from axonal_evaluation.domain.retries import MAX_PROVIDER_ATTEMPTS, backoff
from axonal_evaluation.domain.selectors import MissingField
from axonal_evaluation.evaluators import store
from axonal_evaluation.evaluators.online import fetch_trace
from axonal_evaluation.evaluators.tracing import JudgeSpan, publish_judge_trace
from axonal_evaluation.ports import JudgeCall, ProviderBusy, ProviderRefused
from axonal_events import new_event
from axonal_events.catalog.evaluation import EvalJobDone
from axonal_events.catalog.scores import ScoreCreated
from axonal_events.evaluators import EvalJob, EvalRule, EvalTemplate
from axonal_events.prompts import GetPrompt
from axonal_events.rpcs import Registry
from axonal_events.trace_reads import TraceDetail
from axonal_events.traces import ScoreRecord, ScoreSource

__all__ = ["Failed", "Outcome", "give_up", "run"]

#: Judge answers asked for when the first breaks the output schema.
SCHEMA_ATTEMPTS = 2


class Failed(Exception):
    """The job fails with this reason (and ``answer``, the judge's last, when there was one)."""

    def __init__(self, reason: str, answer: Any = None) -> None:
        super().__init__(reason)
        self.reason, self.answer = reason, answer


@dataclass(frozen=True)
class Outcome:
    score: float
    reasoning: str
    answer: Any
    environment: str


async def _template_text(ctx: Context, project_id: str, template: EvalTemplate) -> str:
    if template.prompt is not None:
        return template.prompt
    assert template.prompt_name is not None
    request = GetPrompt(
        project_id=project_id, name=template.prompt_name, label=template.prompt_label
    )
    try:
        found = await rpc.call(core(ctx.broker), ctx.subjects, Registry.get_prompt, request)
    except RemoteError as exc:
        raise Failed(f"prompt '{template.prompt_name}': {exc.remote_message}") from None
    if isinstance(found.prompt, str):
        return found.prompt
    return "\n\n".join(str(m.get("content", "")) for m in found.prompt if isinstance(m, dict))


def _document(detail: TraceDetail, observation_id: str | None) -> tuple[dict[str, Any], str]:
    """What the selectors read (the target; an observation's trace under ``trace``)."""
    trace = detail.trace.model_dump(mode="json")
    if observation_id is None:
        observations = [o.model_dump(mode="json") for o in detail.observations]
        return {**trace, "observations": observations}, detail.trace.environment
    for observation in detail.observations:
        if observation.id == observation_id:
            return {**observation.model_dump(mode="json"), "trace": trace}, observation.environment
    raise Failed(f"observation {observation_id} is not in trace {detail.trace.id}")


async def _ask(ctx: Context, call: JudgeCall, span: JudgeSpan, pace: Pace | None) -> Any:
    """The judge's parsed answer, asking again on 429 and 5xx (after Retry-After)."""
    for attempt in range(1, MAX_PROVIDER_ATTEMPTS + 1):
        if pace is not None:
            await pace.wait()
        try:
            judged = await ctx.judge.judge(call)
        except ProviderBusy as exc:
            if attempt == MAX_PROVIDER_ATTEMPTS:
                span.error = f"provider busy after {attempt} attempts: {exc}"
                raise Failed(span.error) from None
            await asyncio.sleep(backoff(attempt, exc.retry_after))
            continue
        except ProviderRefused as exc:
            span.error = f"provider refused the call: {exc}"
            raise Failed(span.error) from None
        span.input_tokens += judged.input_tokens
        span.output_tokens += judged.output_tokens
        span.output = judged.answer if judged.answer is not None else judged.raw
        return judged.answer if judged.answer is not None else judged.raw
    raise AssertionError("unreachable")


async def judge(
    ctx: Context, job: EvalJob, rule: EvalRule, template: EvalTemplate, span: JudgeSpan
) -> Outcome:
    """Ask the rule's judge about the job's target; :class:`Failed` says why not."""
    async with ctx.pool.acquire() as conn:
        secret = await connections.secret(conn, job.project_id, rule.connection)
    if secret is None:
        raise Failed(f"LLM connection '{rule.connection}' is missing")
    # a delayed job reads the trace as it is now (late spans included); one due at once may
    # take the read that matched it
    detail = None if rule.delay_seconds else ctx.recent.take(job.trace_id)
    detail = detail or await fetch_trace(ctx, job.project_id, job.trace_id)
    if detail is None:
        raise Failed(f"trace {job.trace_id} is not stored")
    document, environment = _document(detail, job.observation_id)
    text = await _template_text(ctx, job.project_id, template)
    try:
        values = variables_of(variables(text), rule.mapping, document)
    except MissingField as exc:
        raise Failed(str(exc)) from None
    key = ctx.settings.secret_key
    try:
        api_key = secrets.decrypt(key, secret.secret_encrypted)
        headers = (
            secrets.decrypt(key, secret.headers_encrypted) if secret.headers_encrypted else "{}"
        )
    except secrets.InvalidToken:
        raise Failed(
            f"LLM connection '{rule.connection}': its secret was encrypted with another key "
            "than AXONAL_EVALUATION_SECRET_KEY: upsert it again"
        ) from None
    span.prompt = render(text, values)
    call = JudgeCall(
        adapter=secret.adapter,
        secret_key=api_key,
        base_url=secret.base_url,
        model=rule.model,
        prompt=span.prompt,
        schema=OUTPUT_SCHEMA,
        extra_headers=_headers(headers),
    )
    answer: Any = None
    for _ in range(SCHEMA_ATTEMPTS):
        pace = ctx.rule_pace(rule.id, rule.max_per_minute) if rule.max_per_minute else None
        answer = await _ask(ctx, call, span, pace)
        try:
            value, reasoning = check_answer(answer)
        except BadAnswer as exc:
            span.error = str(exc)
            continue
        span.error = None
        return Outcome(value, reasoning, answer, environment)
    raise Failed(f"{span.error} (asked {SCHEMA_ATTEMPTS} times)", answer)


def _headers(text: str) -> dict[str, str]:
    return {str(k): str(v) for k, v in json.loads(text).items()}


async def _rule_of(ctx: Context, job: EvalJob) -> tuple[EvalRule, EvalTemplate] | None:
    async with ctx.pool.acquire() as conn:
        rule = await store.rule(conn, job.project_id, job.rule_id)
        template = await store.template(conn, job.project_id, rule.template_id) if rule else None
    return (rule, template) if rule and template else None  # none: deleted with its jobs


async def give_up(ctx: Context, job: EvalJob, reason: str) -> None:
    """Fail ``job`` with ``reason``: its last delivery failed unexpectedly."""
    found = await _rule_of(ctx, job)
    if found is not None:
        await _finish(ctx, job, *found, Failed(reason))


async def run(ctx: Context, job: EvalJob) -> None:
    """Run ``job`` (already due) and record how it ended."""
    found = await _rule_of(ctx, job)
    if found is None:
        return
    rule, template = found
    async with ctx.rule_cap(rule.id, rule.max_concurrency):
        async with transaction(ctx.pool) as conn:
            started = await store.start_job(conn, job.id)
        if started is None:
            return  # another delivery finished it
        span = JudgeSpan(job.id, started.attempts, template.name, rule.model)
        try:
            outcome: Outcome | Failed = await judge(ctx, started, rule, template, span)
        except Failed as exc:
            outcome = exc
        if span.prompt:
            await publish_judge_trace(ctx, job.project_id, rule.project, span)
    await _finish(ctx, started, rule, template, outcome)


async def _finish(
    ctx: Context, job: EvalJob, rule: EvalRule, template: EvalTemplate, outcome: Outcome | Failed
) -> None:
    pending = PendingEvents(ctx.subjects)
    now = datetime.now(UTC)
    done = EvalJobDone(
        project_id=job.project_id,
        job_id=job.id,
        rule_id=rule.id,
        trace_id=job.trace_id,
        observation_id=job.observation_id,
        state="failed" if isinstance(outcome, Failed) else "succeeded",
    )
    async with transaction(ctx.pool) as conn:
        if isinstance(outcome, Failed):
            finished = await store.finish_job(
                conn, job.id, state="failed", reason=outcome.reason, answer=outcome.answer
            )
            done = done.model_copy(update={"reason": outcome.reason})
        else:
            sid = score_id(job.id)
            finished = await store.finish_job(
                conn,
                job.id,
                state="succeeded",
                answer=outcome.answer,
                score_id=sid,
                score_value=outcome.score,
            )
            score = ScoreRecord(
                id=sid,
                event_time=now,
                timestamp=now,
                name=template.score_name,
                value=outcome.score,
                source=ScoreSource.EVAL,
                trace_id=job.trace_id,
                observation_id=job.observation_id,
                comment=outcome.reasoning,
                environment=outcome.environment,
                metadata={"rule_id": rule.id, "job_id": job.id},
            )
            created = ScoreCreated(
                project_id=job.project_id, project=rule.project, score=score, job_id=job.id
            )
            pending.add(new_event(created, source=ctx.source, project=rule.project))
            done = done.model_copy(update={"score_id": sid, "score_value": outcome.score})
        if not finished:
            return
        pending.add(new_event(done, source=ctx.source, project=rule.project))
        await pending.flush(conn, direct=True)
    await ctx.publish_committed(pending)
