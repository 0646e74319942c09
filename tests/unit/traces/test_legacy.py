"""Langfuse batch ingestion events -> records, each invalid event refused alone."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from axonal_events.traces import ObservationLevel, ObservationType, ScoreDataType
from axonal_traces import convert_batch

from .conftest import fixture

NOW = datetime(2026, 12, 1, tzinfo=UTC)
TS = "2026-11-29T21:12:21.989153Z"


def convert(*events):
    return convert_batch(list(events), received_at=NOW)


def event(kind, body, event_id="e1"):
    return {"id": event_id, "type": kind, "timestamp": TS, "body": body}


def test_the_fixture_batch_is_accepted_whole():
    request = fixture("ingestion-batch.json")
    batch = request["body"]["batch"]
    records = convert(*batch)
    assert records.errors == []
    assert records.accepted == [e["id"] for e in batch]
    assert [{"id": i, "status": 201} for i in records.accepted] == request["response"]["body"][
        "successes"
    ]
    assert len(records.traces) == 2
    assert len(records.observations) == 5
    assert len(records.scores) == 2
    answer = records.observations[2]
    assert (answer.type, answer.model, answer.parent_observation_id) == (
        ObservationType.GENERATION,
        "gpt-4o-mini",
        "obs-search",
    )
    update = records.observations[3]
    assert update.type is ObservationType.GENERATION
    assert update.usage_details == {"input": 14, "output": 2}
    assert update.cost_details == {"input": 2.1e-06, "output": 1.2e-06}
    slow = records.observations[4]
    assert (slow.level, slow.status_message) == (ObservationLevel.WARNING, "index above 500 ms")
    tone = records.scores[1]
    assert (tone.data_type, tone.string_value, tone.value, tone.observation_id) == (
        ScoreDataType.CATEGORICAL,
        "formal",
        None,
        "obs-answer",
    )


def test_an_invalid_event_fails_alone():
    batch = fixture("ingestion-batch.json")["body"]["batch"]
    bad = event("span-create", {"id": "x", "name": "no trace id"}, "bad-1")
    records = convert(*batch, bad)
    assert len(records.accepted) == len(batch)
    (error,) = records.errors
    assert (error.id, error.status, error.message) == ("bad-1", 400, "Invalid request data")
    assert "traceId" in error.error


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ({"type": "trace-create", "body": {}}, "id"),
        ({"id": "e", "type": "trace-create"}, "body"),
        ({"id": "e", "type": "nope", "body": {}}, "unsupported"),
        ({"id": "e", "type": "span-update", "body": {"traceId": "t"}}, "body.id"),
        ({"id": "e", "type": "observation-create", "body": {"traceId": "t", "type": "X"}}, "type"),
        (
            {
                "id": "e",
                "type": "generation-create",
                "body": {"traceId": "t", "startTime": "yesterday"},
            },
            "yesterday",
        ),
        ({"id": "e", "type": "score-create", "body": {"name": "s", "value": 1}}, "traceId"),
        ({"id": "e", "type": "trace-create", "body": {"id": "t", "tags": "x"}}, "tags"),
        ("not an object", "id"),
    ],
)
def test_invalid_events_are_reported_with_a_reason(raw, reason):
    records = convert(raw)
    (error,) = records.errors
    assert reason in error.error
    assert records.accepted == []


def test_sdk_log_is_accepted_and_dropped():
    records = convert(event("sdk-log", {"log": "hi"}))
    assert records.accepted == ["e1"]
    assert (records.traces, records.observations, records.scores) == ([], [], [])


@pytest.mark.parametrize(
    "kind",
    [
        "agent",
        "tool",
        "chain",
        "retriever",
        "evaluator",
        "embedding",
        "guardrail",
        "span",
        "generation",
        "event",
    ],
)
def test_server_side_typed_creates(kind):
    records = convert(event(f"{kind}-create", {"id": "o", "traceId": "t"}))
    assert records.observations[0].type is ObservationType(kind.upper())


def test_observation_create_carries_its_type_and_events_end_where_they_start():
    records = convert(
        event("observation-create", {"id": "o", "traceId": "t", "type": "EVENT", "startTime": TS})
    )
    obs = records.observations[0]
    assert obs.type is ObservationType.EVENT
    assert obs.end_time == obs.start_time


def test_legacy_usage_and_openai_usage_objects():
    legacy = convert(
        event(
            "generation-create",
            {
                "id": "g",
                "traceId": "t",
                "usage": {
                    "input": 5,
                    "output": 2,
                    "unit": "TOKENS",
                    "inputCost": 0.1,
                    "totalCost": 0.3,
                },
            },
        )
    ).observations[0]
    assert legacy.usage_details == {"input": 5, "output": 2}
    assert legacy.cost_details == {"input": 0.1, "total": 0.3}
    openai = convert(
        event(
            "generation-create",
            {
                "id": "g",
                "traceId": "t",
                "usageDetails": {
                    "prompt_tokens": 10,
                    "completion_tokens": 8,
                    "total_tokens": 18,
                    "prompt_tokens_details": {"cached_tokens": 4},
                    "completion_tokens_details": {"reasoning_tokens": 3},
                },
            },
        )
    ).observations[0]
    assert openai.usage_details == {
        "input": 6,
        "output": 5,
        "total": 18,
        "input_cached_tokens": 4,
        "output_reasoning_tokens": 3,
    }
    sdk = convert(
        event(
            "generation-create",
            {"id": "g", "traceId": "t", "usage": {"promptTokens": 3, "completionTokens": 1}},
        )
    ).observations[0]
    assert sdk.usage_details == {"input": 3, "output": 1}


def test_trace_fields_and_event_time():
    records = convert(
        event(
            "trace-create",
            {
                "id": "t",
                "name": "n",
                "userId": "u",
                "sessionId": "s",
                "public": True,
                "metadata": "plain",
                "timestamp": TS,
                "environment": "prod",
            },
        )
    )
    trace = records.traces[0]
    assert (trace.name, trace.user_id, trace.session_id, trace.public) == ("n", "u", "s", True)
    assert trace.metadata == {"metadata": "plain"}
    assert (
        trace.event_time
        == trace.timestamp
        == datetime(2026, 11, 29, 21, 12, 21, 989153, tzinfo=UTC)
    )
    assert trace.environment == "prod"


def test_a_non_finite_cost_fails_its_event_only():
    records = convert(
        event(
            "generation-create", {"id": "g", "traceId": "t", "costDetails": {"input": float("nan")}}
        ),
        event("trace-create", {"id": "t"}, "e2"),
    )
    assert [e.id for e in records.errors] == ["e1"]
    assert records.accepted == ["e2"]
