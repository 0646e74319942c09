"""Request/reply: templates (LLM and code), rules (create, list, activate) and jobs (list,
read)."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_db import Connection, transaction
from axonal_evaluation.connections import store as connections
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import store as datasets
from axonal_evaluation.domain.code_evaluators import check_runtime, signature
from axonal_evaluation.domain.judging import variables
from axonal_evaluation.domain.selectors import parse
from axonal_evaluation.evaluators import offline, store
from axonal_evaluation.queues import store as queues
from axonal_events.annotation_queues import AnnotationQueue
from axonal_events.evaluators import (
    CreateEvalRule,
    CreateEvalTemplate,
    EvalJob,
    EvalJobList,
    EvalRule,
    EvalRuleList,
    EvalTemplate,
    EvalTemplateList,
    GetEvalJob,
    ListEvalJobs,
    ListEvalRules,
    ListEvalTemplates,
    SetRuleActive,
)
from axonal_events.rpcs import Evaluation

__all__ = [
    "create_eval_rule",
    "create_eval_template",
    "get_eval_job",
    "list_eval_jobs",
    "list_eval_rules",
    "list_eval_templates",
    "register",
    "set_eval_rule_active",
]


def _check_template(request: CreateEvalTemplate) -> None:
    if request.kind == "code":
        if request.code is None or request.prompt is not None or request.prompt_name is not None:
            raise Invalid("a code template needs 'code' (Python defining evaluate), no prompt")
        try:
            signature(request.code)
            check_runtime(request.runtime)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
        return
    if request.code is not None:
        raise Invalid("code: set kind 'code' for a code evaluator")
    if (request.prompt is None) == (request.prompt_name is None):
        raise Invalid("a template needs either 'prompt' (inline text) or 'prompt_name'")
    if request.prompt is not None and not variables(request.prompt):
        raise Invalid("prompt: the text has no {{variable}} to fill")


async def create_eval_template(ctx: Context, request: CreateEvalTemplate) -> EvalTemplate:
    _check_template(request)
    template = EvalTemplate(
        id=str(uuid.uuid4()),
        score_name=request.score_name or request.name,
        created_at=datetime.now(UTC),
        **request.model_dump(exclude={"score_name"}),
    )
    async with ctx.pool.acquire() as conn:
        if not await store.insert_template(conn, template):
            raise Conflict(f"a template named '{request.name}' already exists")
    return template


async def list_eval_templates(ctx: Context, request: ListEvalTemplates) -> EvalTemplateList:
    async with ctx.pool.acquire() as conn:
        return EvalTemplateList(data=await store.templates(conn, request.project_id))


async def _check_connection(conn: Connection, project_id: str, provider: str | None) -> None:
    if provider is None:
        raise Invalid("connection: an LLM template needs the connection (and model) that judges")
    if await connections.secret(conn, project_id, provider) is None:
        raise Invalid(
            f"connection: no LLM connection '{provider}' in this project: create it "
            "(PUT /api/public/llm-connections) before activating the rule"
        )


async def _action(
    conn: Connection, request: CreateEvalRule
) -> tuple[EvalTemplate | None, AnnotationQueue | None]:
    """What the rule does with a target: score it with a template, or queue it for review."""
    if (request.template is None) == (request.queue is None):
        raise Invalid("a rule either scores with 'template' or sends to 'queue': give one")
    if request.queue is not None:
        queue = await queues.queue_named(conn, request.project_id, request.queue)
        if queue is None:
            raise Invalid(f"queue: no annotation queue '{request.queue}' in this project")
        return None, queue
    assert request.template is not None
    template = await store.template(conn, request.project_id, request.template)
    if template is None:
        raise Invalid(f"template: no template '{request.template}' in this project")
    if template.kind == "llm" and request.model is None:
        raise Invalid("model: an LLM template needs the model that judges")
    return template, None


async def _check_datasets(conn: Connection, project_id: str, names: list[str]) -> None:
    for name in names:
        found = await datasets.find_dataset(conn, project_id, name=name)
        if found is None and await datasets.find_dataset(conn, project_id, id=name) is None:
            raise Invalid(f"filter.datasets: no dataset '{name}' in this project")


async def create_eval_rule(ctx: Context, request: CreateEvalRule) -> EvalRule:
    for name, selector in request.mapping.items():
        try:
            parse(selector)
        except ValueError as exc:
            raise Invalid(f"mapping.{name}: {exc}") from None
    async with transaction(ctx.pool) as conn:
        template, queue = await _action(conn, request)
        await _check_datasets(conn, request.project_id, request.filter.datasets)
        if request.active and template is not None and template.kind == "llm":
            await _check_connection(conn, request.project_id, request.connection)
        now = datetime.now(UTC)
        rule = EvalRule(
            id=str(uuid.uuid4()),
            template_id=template.id if template else None,
            template=template.name if template else None,
            queue_id=queue.id if queue else None,
            created_at=now,
            updated_at=now,
            **request.model_dump(exclude={"filter", "template", "queue"}),
            filter=request.filter,
        )
        if not await store.insert_rule(conn, rule):
            raise Conflict(f"a rule named '{request.name}' already exists")
    return rule


async def list_eval_rules(ctx: Context, request: ListEvalRules) -> EvalRuleList:
    async with ctx.pool.acquire() as conn:
        return EvalRuleList(data=await store.rules(conn, request.project_id))


async def set_eval_rule_active(ctx: Context, request: SetRuleActive) -> EvalRule:
    async with transaction(ctx.pool) as conn:
        rule = await store.rule(conn, request.project_id, request.id)
        if rule is None:
            raise NotFound(f"Rule not found: '{request.id}'")
        found = await store.rule_with_template(conn, request.project_id, rule.id)
        template = found[1] if found else None
        if request.active and template is not None and template.kind == "llm":
            await _check_connection(conn, request.project_id, rule.connection)
        await store.set_active(conn, rule.id, request.active)
        updated = await store.rule(conn, request.project_id, rule.id)
    assert updated is not None
    return updated


async def list_eval_jobs(ctx: Context, request: ListEvalJobs) -> EvalJobList:
    async with ctx.pool.acquire() as conn:
        rule_id = None
        if request.rule_id:
            rule = await store.rule(conn, request.project_id, request.rule_id)
            if rule is None:
                raise NotFound(f"Rule not found: '{request.rule_id}'")
            rule_id = rule.id
        return EvalJobList(data=await store.jobs(conn, request, rule_id))


async def get_eval_job(ctx: Context, request: GetEvalJob) -> EvalJob:
    async with ctx.pool.acquire() as conn:
        found = await store.job(conn, request.project_id, request.id)
    if found is None:
        raise NotFound(f"Job not found: '{request.id}'")
    return found


def register(ctx: Context) -> None:
    ctx.serve(Evaluation.create_eval_template, create_eval_template)
    ctx.serve(Evaluation.list_eval_templates, list_eval_templates)
    ctx.serve(Evaluation.create_eval_rule, create_eval_rule)
    ctx.serve(Evaluation.list_eval_rules, list_eval_rules)
    ctx.serve(Evaluation.set_eval_rule_active, set_eval_rule_active)
    ctx.serve(Evaluation.list_eval_jobs, list_eval_jobs)
    ctx.serve(Evaluation.get_eval_job, get_eval_job)
    ctx.serve(Evaluation.evaluate_dataset_run, offline.evaluate_dataset_run)
