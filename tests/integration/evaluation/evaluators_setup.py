"""Helpers of the evaluator tests: a judge rule on the test's project, traces to feed it."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from axonal_bus import rpc
from axonal_events.evaluators import (
    CreateEvalRule,
    CreateEvalTemplate,
    EvalRule,
    UpsertLlmConnection,
)
from axonal_events.rpcs import Evaluation
from axonal_events.traces import TraceBatch, TraceRecord

PROJECT_ID = "0190aaaa-bbbb-7ccc-8ddd-eeeeeeeeeeee"
PROJECT = "acme/llm"
PROMPT = "Question: {{question}}\nAnswer: {{answer}}\nScore the answer between 0 and 1."


async def judge_rule(nc: Any, subjects: Any, base_url: str, **rule: Any) -> EvalRule:
    """An OpenAI connection to ``base_url``, a template and an active rule on ``chat`` traces."""
    await rpc.call(
        nc,
        subjects,
        Evaluation.upsert_llm_connection,
        UpsertLlmConnection(
            project_id=PROJECT_ID,
            provider="judge",
            adapter="openai",
            secret_key="sk-test-123456789",
            base_url=base_url,
        ),
    )
    await rpc.call(
        nc,
        subjects,
        Evaluation.create_eval_template,
        CreateEvalTemplate(project_id=PROJECT_ID, name="helpfulness", prompt=PROMPT),
    )
    fields: dict[str, Any] = {
        "project_id": PROJECT_ID,
        "project": PROJECT,
        "name": "chat-helpfulness",
        "template": "helpfulness",
        "connection": "judge",
        "model": "gpt-judge",
        "filter": {"names": ["chat"]},
        "mapping": {"question": "input", "answer": "output.answer"},
        "sampling": 1.0,
    }
    return await rpc.call(
        nc, subjects, Evaluation.create_eval_rule, CreateEvalRule.model_validate(fields | rule)
    )


def trace_batch(traces: list[tuple[str, str, Any]]) -> bytes:
    """A batch of traces ``(id, name, output)`` asked ``what is 2+2?``."""
    now = datetime.now(UTC)
    records = [
        TraceRecord(
            id=tid, event_time=now, timestamp=now, name=name, input="what is 2+2?", output=output
        )
        for tid, name, output in traces
    ]
    batch = TraceBatch(project_id=PROJECT_ID, project=PROJECT, received_at=now, traces=records)
    return batch.model_dump_json(exclude_none=True).encode()


async def publish_traces(js: Any, subjects: Any, traces: list[tuple[str, str, Any]]) -> None:
    await js.publish(
        subjects.ingest(f"traces.{PROJECT_ID}"),
        trace_batch(traces),
        headers={"Nats-Msg-Id": uuid.uuid4().hex},
    )
