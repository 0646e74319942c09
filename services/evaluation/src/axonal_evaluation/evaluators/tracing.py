"""The judge's own call, traced like any LLM call (environment ``langfuse-llm-as-a-judge``):
a trace and its generation with the model and the tokens, so tracking prices it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from axonal_bus.broker import jetstream
from axonal_evaluation.context import Context
from axonal_evaluation.domain.rules import JUDGE_TRACE_PREFIX
from axonal_events.traces import (
    ObservationLevel,
    ObservationRecord,
    ObservationType,
    TraceBatch,
    TraceRecord,
)

__all__ = ["JUDGE_ENVIRONMENT", "JudgeSpan", "publish_judge_trace"]

#: Where judge calls are traced, as Langfuse names it: apart from the application's traces.
JUDGE_ENVIRONMENT = "langfuse-llm-as-a-judge"


class JudgeSpan:
    """What one judge call sent and got back."""

    def __init__(self, job_id: str, attempt: int, evaluator: str, model: str) -> None:
        self.job_id, self.attempt, self.evaluator, self.model = job_id, attempt, evaluator, model
        self.started = datetime.now(UTC)
        self.prompt = ""
        self.output: object = None
        self.input_tokens = 0
        self.output_tokens = 0
        self.error: str | None = None

    @property
    def trace_id(self) -> str:
        return JUDGE_TRACE_PREFIX + uuid.uuid5(uuid.NAMESPACE_URL, self.job_id).hex


async def publish_judge_trace(ctx: Context, project_id: str, project: str, span: JudgeSpan) -> None:
    """Publish the judge call on the trace ingest subject; returns once JetStream stored it."""
    ended = datetime.now(UTC)
    name = f"Execute evaluator: {span.evaluator}"
    trace = TraceRecord(
        id=span.trace_id,
        event_time=ended,
        timestamp=span.started,
        name=name,
        input=span.prompt,
        output=span.output,
        metadata={"job_id": span.job_id},
        environment=JUDGE_ENVIRONMENT,
    )
    generation = ObservationRecord(
        id=f"{span.trace_id}-{span.attempt}",
        trace_id=span.trace_id,
        type=ObservationType.GENERATION,
        event_time=ended,
        name=name,
        start_time=span.started,
        end_time=ended,
        input=[{"role": "user", "content": span.prompt}],
        output=span.output,
        environment=JUDGE_ENVIRONMENT,
        model=span.model,
        usage_details={
            "input": span.input_tokens,
            "output": span.output_tokens,
            "total": span.input_tokens + span.output_tokens,
        },
        level=ObservationLevel.ERROR if span.error else None,
        status_message=span.error,
    )
    batch = TraceBatch(
        project_id=project_id,
        project=project,
        received_at=ended,
        traces=[trace],
        observations=[generation],
    )
    await jetstream(ctx.broker).publish(
        ctx.subjects.ingest(f"traces.{project_id}"),
        batch.model_dump_json(exclude_none=True).encode(),
        headers={"Nats-Msg-Id": f"eval-judge:{span.job_id}:{span.attempt}"},
    )
