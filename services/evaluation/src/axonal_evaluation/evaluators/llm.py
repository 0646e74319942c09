"""LLM-as-a-judge: fill the template with the target's fields, ask the rule's judge through
its connection (429 and 5xx asked again with backoff; an answer that breaks the output
schema asked once more), and trace the call in its own environment."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_evaluation.connections import store as connections
from axonal_evaluation.context import Context, Pace
from axonal_evaluation.domain import secrets
from axonal_evaluation.domain.judging import (
    OUTPUT_SCHEMA,
    BadAnswer,
    check_answer,
    render,
    variables,
    variables_of,
)
from axonal_evaluation.domain.retries import MAX_PROVIDER_ATTEMPTS, backoff
from axonal_evaluation.domain.selectors import MissingField
from axonal_evaluation.evaluators.outcomes import Failed, Outcome
from axonal_evaluation.evaluators.targets import TargetMissing, document
from axonal_evaluation.evaluators.tracing import JudgeSpan, publish_judge_trace
from axonal_evaluation.ports import JudgeCall, ProviderBusy, ProviderRefused
from axonal_events.evaluators import EvalJob, EvalRule, EvalTemplate
from axonal_events.prompts import GetPrompt
from axonal_events.rpcs import Registry

__all__ = ["SCHEMA_ATTEMPTS", "evaluate", "judge"]

#: Judge answers asked for when the first breaks the output schema.
SCHEMA_ATTEMPTS = 2


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
    assert rule.connection is not None  # checked at creation
    assert rule.model is not None
    async with ctx.pool.acquire() as conn:
        secret = await connections.secret(conn, job.project_id, rule.connection)
    if secret is None:
        raise Failed(f"LLM connection '{rule.connection}' is missing")
    try:
        target, environment = await document(ctx, job, fresh=bool(rule.delay_seconds))
    except TargetMissing as exc:
        raise Failed(str(exc)) from None
    text = await _template_text(ctx, job.project_id, template)
    try:
        values = variables_of(variables(text), rule.mapping, target)
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


async def evaluate(
    ctx: Context, job: EvalJob, rule: EvalRule, template: EvalTemplate
) -> Outcome | Failed:
    """Judge a started job's target, tracing the call when one was made."""
    assert rule.model is not None
    span = JudgeSpan(job.id, job.attempts, template.name, rule.model)
    try:
        outcome: Outcome | Failed = await judge(ctx, job, rule, template, span)
    except Failed as exc:
        outcome = exc
    if span.prompt:
        await publish_judge_trace(ctx, job.project_id, rule.project, span)
    return outcome
