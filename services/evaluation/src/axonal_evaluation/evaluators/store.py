"""SQL of the ``eval_templates``, ``eval_rules`` and ``eval_jobs`` tables."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, NamedTuple

from axonal_db import Connection
from axonal_events.evaluators import EvalJob, EvalRule, EvalTemplate, ListEvalJobs

__all__ = [
    "NewJob",
    "active_rules",
    "finish_job",
    "insert_jobs",
    "insert_rule",
    "insert_template",
    "job",
    "job_of_run",
    "jobs",
    "rule",
    "rule_with_template",
    "rules",
    "set_active",
    "set_run",
    "start_job",
    "template",
    "templates",
]

_TEMPLATE = (
    "id, project_id, name, kind, prompt, prompt_name, prompt_label, code, runtime, score_name, "
    "description, created_at"
)
_RULE = (
    "r.id, r.project_id, r.project, r.name, r.template_id, t.name AS template, r.queue_id, "
    "r.connection, "
    "r.model, r.target, r.filter, r.mapping, r.sampling, r.delay_seconds, r.max_concurrency, "
    "r.max_per_minute, r.active, r.created_at, r.updated_at"
)
_RULES = "eval_rules r LEFT JOIN eval_templates t ON t.id = r.template_id"
_JOB = (
    "id, project_id, rule_id, trace_id, observation_id, state, reason, answer, "
    "dataset_item_id, dataset_run_id, run_uuid, queue_item_id, score_id, score_value, attempts, "
    "due_at, created_at, updated_at"
)


class NewJob(NamedTuple):
    id: str
    project_id: str
    rule_id: str
    target_key: str
    trace_id: str
    observation_id: str | None
    due_at: datetime
    dataset_item_id: str | None = None
    dataset_run_id: str | None = None


def _rule(row: Any) -> EvalRule:
    return EvalRule.model_validate(dict(row))


def _job(row: Any) -> EvalJob:
    return EvalJob.model_validate(dict(row))


async def insert_template(conn: Connection, template: EvalTemplate) -> bool:
    """``False`` when the project already has a template of that name."""
    done = await conn.fetchval(
        f"INSERT INTO eval_templates ({_TEMPLATE}) VALUES "  # noqa: S608
        "($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
        "ON CONFLICT (project_id, name) DO NOTHING RETURNING true",
        *template.model_dump().values(),
    )
    return bool(done)


async def templates(conn: Connection, project_id: str) -> list[EvalTemplate]:
    rows = await conn.fetch(
        f"SELECT {_TEMPLATE} FROM eval_templates WHERE project_id = $1 ORDER BY name",  # noqa: S608
        project_id,
    )
    return [EvalTemplate.model_validate(dict(r)) for r in rows]


async def template(conn: Connection, project_id: str, key: str) -> EvalTemplate | None:
    """The template named ``key``, or of id ``key``."""
    row = await conn.fetchrow(
        f"SELECT {_TEMPLATE} FROM eval_templates WHERE project_id = $1 "  # noqa: S608
        "AND (name = $2 OR id = $2) ORDER BY name = $2 DESC LIMIT 1",
        project_id,
        key,
    )
    return EvalTemplate.model_validate(dict(row)) if row else None


async def insert_rule(conn: Connection, rule: EvalRule) -> bool:
    done = await conn.fetchval(
        "INSERT INTO eval_rules (id, project_id, project, name, template_id, connection, model, "
        "target, filter, mapping, sampling, delay_seconds, max_concurrency, max_per_minute, "
        "active, created_at, updated_at, queue_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, "
        "$10, $11, $12, $13, $14, $15, $16, $16, $17) "
        "ON CONFLICT (project_id, name) DO NOTHING RETURNING true",
        rule.id,
        rule.project_id,
        rule.project,
        rule.name,
        rule.template_id,
        rule.connection,
        rule.model,
        rule.target,
        rule.filter.model_dump(),
        rule.mapping,
        rule.sampling,
        rule.delay_seconds,
        rule.max_concurrency,
        rule.max_per_minute,
        rule.active,
        rule.created_at,
        rule.queue_id,
    )
    return bool(done)


async def rules(conn: Connection, project_id: str) -> list[EvalRule]:
    rows = await conn.fetch(
        f"SELECT {_RULE} FROM {_RULES} WHERE r.project_id = $1 ORDER BY r.name",  # noqa: S608
        project_id,
    )
    return [_rule(r) for r in rows]


async def active_rules(conn: Connection, project_id: str) -> list[EvalRule]:
    rows = await conn.fetch(
        f"SELECT {_RULE} FROM {_RULES} WHERE r.project_id = $1 AND r.active",  # noqa: S608
        project_id,
    )
    return [_rule(r) for r in rows]


async def rule(conn: Connection, project_id: str, key: str) -> EvalRule | None:
    """The rule named ``key``, or of id ``key``."""
    row = await conn.fetchrow(
        f"SELECT {_RULE} FROM {_RULES} WHERE r.project_id = $1 AND (r.name = $2 OR r.id = $2) "  # noqa: S608
        "ORDER BY r.name = $2 DESC LIMIT 1",
        project_id,
        key,
    )
    return _rule(row) if row else None


async def rule_with_template(
    conn: Connection, project_id: str, rule_id: str
) -> tuple[EvalRule, EvalTemplate | None] | None:
    """A rule and its template (none for a rule that sends to a queue); ``None`` when either
    was deleted."""
    found = await rule(conn, project_id, rule_id)
    if found is None or found.template_id is None:
        return (found, None) if found else None
    used = await template(conn, project_id, found.template_id)
    return (found, used) if used else None


async def set_active(conn: Connection, rule_id: str, active: bool) -> None:
    await conn.execute(
        "UPDATE eval_rules SET active = $2, updated_at = now() WHERE id = $1", rule_id, active
    )


async def insert_jobs(conn: Connection, new: Sequence[NewJob]) -> list[str]:
    """Insert the jobs not there yet (by rule and target); the ids of those inserted."""
    if not new:
        return []
    columns = list(zip(*new, strict=True))
    rows = await conn.fetch(
        "INSERT INTO eval_jobs (id, project_id, rule_id, target_key, trace_id, observation_id, "
        "due_at, dataset_item_id, dataset_run_id) SELECT * FROM unnest($1::text[], $2::text[], "
        "$3::text[], $4::text[], $5::text[], $6::text[], $7::timestamptz[], $8::text[], "
        "$9::text[]) "
        "ON CONFLICT (rule_id, target_key) DO NOTHING RETURNING id",
        *columns,
    )
    return [r["id"] for r in rows]


async def job(conn: Connection, project_id: str | None, job_id: str) -> EvalJob | None:
    row = await conn.fetchrow(
        f"SELECT {_JOB} FROM eval_jobs WHERE id = $1 AND ($2::text IS NULL OR project_id = $2)",  # noqa: S608
        job_id,
        project_id,
    )
    return _job(row) if row else None


async def start_job(conn: Connection, job_id: str) -> EvalJob | None:
    """Mark a pending (or interrupted running) job running; ``None`` once it is done."""
    row = await conn.fetchrow(
        "UPDATE eval_jobs SET state = 'running', attempts = attempts + 1, updated_at = now() "  # noqa: S608
        f"WHERE id = $1 AND state IN ('pending', 'running') RETURNING {_JOB}",
        job_id,
    )
    return _job(row) if row else None


async def finish_job(
    conn: Connection,
    job_id: str,
    *,
    state: str,
    reason: str | None = None,
    answer: Any = None,
    score_id: str | None = None,
    score_value: float | None = None,
    queue_item_id: str | None = None,
) -> bool:
    """Record a job's end; ``False`` if it had already ended (then emit nothing)."""
    done = await conn.fetchval(
        "UPDATE eval_jobs SET state = $2, reason = $3, answer = $4, score_id = $5, "
        "score_value = $6, queue_item_id = $7, updated_at = now() "
        "WHERE id = $1 AND state IN ('pending', 'running') RETURNING true",
        job_id,
        state,
        reason,
        answer,
        score_id,
        score_value,
        queue_item_id,
    )
    return bool(done)


async def set_run(conn: Connection, job_id: str, run_uuid: str, environment: str) -> None:
    """Record the run a code evaluator's job waits for, and its target's environment."""
    await conn.execute(
        "UPDATE eval_jobs SET run_uuid = $2, environment = $3, updated_at = now() WHERE id = $1",
        job_id,
        run_uuid,
        environment,
    )


async def job_of_run(conn: Connection, run_uuid: str) -> tuple[EvalJob, str] | None:
    """The job waiting for ``run_uuid``, with its target's environment."""
    row = await conn.fetchrow(
        f"SELECT {_JOB}, environment FROM eval_jobs WHERE run_uuid = $1",  # noqa: S608
        run_uuid,
    )
    if row is None:
        return None
    fields = dict(row)
    environment = fields.pop("environment") or "default"
    return EvalJob.model_validate(fields), environment


async def jobs(conn: Connection, query: ListEvalJobs, rule_id: str | None) -> list[EvalJob]:
    rows = await conn.fetch(
        f"SELECT {_JOB} FROM eval_jobs WHERE project_id = $1 "  # noqa: S608
        "AND ($2::text IS NULL OR rule_id = $2) AND ($3::text IS NULL OR state = $3) "
        "ORDER BY created_at DESC, id LIMIT $4",
        query.project_id,
        rule_id,
        query.state,
        query.limit,
    )
    return [_job(r) for r in rows]
