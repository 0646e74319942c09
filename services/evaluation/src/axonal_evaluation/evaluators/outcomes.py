"""How a job ends: ``succeeded`` with its score (or the queue item it made), or ``failed``
with why, written in one transaction with the ``score.created`` and
``evaluation.job.done`` events. A job that has already ended records and emits nothing, so
a redelivered command or event is harmless; a score's id derives from its job's."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from axonal_bus.outbox import PendingEvents
from axonal_db import transaction
from axonal_evaluation.context import Context
from axonal_evaluation.domain.judging import score_id
from axonal_evaluation.evaluators import store
from axonal_events import new_event
from axonal_events.catalog.evaluation import EvalJobDone
from axonal_events.catalog.scores import ScoreCreated
from axonal_events.evaluators import EvalJob, EvalRule, EvalTemplate
from axonal_events.traces import ScoreRecord, ScoreSource

__all__ = ["Failed", "Outcome", "Queued", "finish"]


class Failed(Exception):
    """The job fails with this reason (and ``answer``, the judge's last, when there was one)."""

    def __init__(self, reason: str, answer: Any = None) -> None:
        super().__init__(reason)
        self.reason, self.answer = reason, answer


@dataclass(frozen=True)
class Outcome:
    """An evaluator's score."""

    score: float
    reasoning: str
    answer: Any
    environment: str


@dataclass(frozen=True)
class Queued:
    """The target was sent to an annotation queue, as this item."""

    queue_item_id: str


async def finish(
    ctx: Context,
    job: EvalJob,
    rule: EvalRule,
    template: EvalTemplate | None,
    outcome: Outcome | Queued | Failed,
) -> None:
    """Record how ``job`` ended, with its events (see the module docstring)."""
    pending = PendingEvents(ctx.subjects)
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
        elif isinstance(outcome, Queued):
            finished = await store.finish_job(
                conn, job.id, state="succeeded", queue_item_id=outcome.queue_item_id
            )
        else:
            assert template is not None  # a rule that scores has a template
            sid = score_id(job.id)
            finished = await store.finish_job(
                conn,
                job.id,
                state="succeeded",
                answer=outcome.answer,
                score_id=sid,
                score_value=outcome.score,
            )
            pending.add(_score_created(ctx, job, rule, template, outcome, sid))
            done = done.model_copy(update={"score_id": sid, "score_value": outcome.score})
        if not finished:
            return
        pending.add(new_event(done, source=ctx.source, project=rule.project))
        await pending.flush(conn, direct=True)
    await ctx.publish_committed(pending)


def _score_created(
    ctx: Context, job: EvalJob, rule: EvalRule, template: EvalTemplate, outcome: Outcome, sid: str
) -> Any:
    now = datetime.now(UTC)
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
    return new_event(created, source=ctx.source, project=rule.project)
