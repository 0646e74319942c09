"""OTLP-JSON exports -> records: refusals, and keys of integrations and frameworks."""

from __future__ import annotations

import json

import pytest

from axonal_events.traces import ObservationType
from axonal_traces import OtlpFormatError, convert_export

from .conftest import PROJECT, export, one, span


@pytest.mark.parametrize(
    "bad",
    [
        {"traceId": "xyz"},
        {"traceId": "0" * 32},
        {"spanId": "abc"},
        {"parentSpanId": "not-hex"},
        {"attributes": {"a": 1}},
        {"events": "x"},
        {"startTimeUnixNano": "soon"},
    ],
)
def test_one_malformed_span_refuses_the_whole_export(bad):
    good = span({})
    with pytest.raises(OtlpFormatError):
        convert_export(export(good, {**span({}), **bad}), project_id=PROJECT)


@pytest.mark.parametrize(
    "bad",
    [
        [],
        {"resourceSpans": {}},
        {"resourceSpans": [{"scopeSpans": "x"}]},
        {"resourceSpans": [{"scopeSpans": [{"spans": {}}]}]},
    ],
)
def test_malformed_structure(bad):
    with pytest.raises(OtlpFormatError):
        convert_export(bad, project_id=PROJECT)


def test_an_empty_export_is_nothing():
    records = convert_export({"resourceSpans": []}, project_id=PROJECT)
    assert (records.traces, records.observations) == ([], [])


def test_the_axonal_run_links_the_trace_from_span_or_resource():
    run = "0123456789abcdef0123456789abcdef"
    child = {"parentSpanId": "1111111111111111"}
    records = convert_export(
        export(span({}, **child), resource={"axonal.run.uuid": run}), project_id=PROJECT
    )
    assert records.traces[0].run_uuid == run
    assert one({"axonal.run.uuid": run}).traces[0].run_uuid == run


def test_integration_keys_for_user_session_and_tags():
    trace = one(
        {
            "langfuse.observation.metadata.langfuse_user_id": "u",
            "langfuse.observation.metadata.langfuse_session_id": "s",
            "langfuse.observation.metadata.langfuse_tags": '["x"]',
        }
    ).traces[0]
    assert (trace.user_id, trace.session_id, trace.tags) == ("u", "s", ["x"])
    vercel = one(
        {
            "ai.telemetry.metadata.userId": "v",
            "ai.telemetry.metadata.sessionId": "w",
            "ai.telemetry.metadata.tags": ["t"],
        }
    ).traces[0]
    assert (vercel.user_id, vercel.session_id, vercel.tags) == ("v", "w", ["t"])


def test_framework_io_and_time_to_first_chunk():
    obs = one(
        {
            "mlflow.spanInputs": '{"a": 1}',
            "traceloop.entity.output": "done",
            "ai.response.msToFirstChunk": 250.0,
        }
    ).observations[0]
    assert (obs.input, obs.output) == ({"a": 1}, "done")
    assert obs.start_time is not None
    assert (obs.completion_start_time - obs.start_time).total_seconds() == 0.25
    vercel = one(
        {
            "ai.prompt.messages": '[{"role": "user"}]',
            "ai.response.text": "hi",
            "ai.model.id": "gpt-4o",
            "ai.telemetry.functionId": "f",
            "ai.operationId": "ai.generateText",
        }
    ).observations[0]
    assert (vercel.input, vercel.output, vercel.model) == ([{"role": "user"}], "hi", "gpt-4o")
    assert (vercel.type, vercel.name) == (ObservationType.GENERATION, "f:ai.generateText")
    tool = one(
        {
            "gen_ai.tool.call.arguments": '{"x": 1}',
            "gen_ai.tool.call.result": "2",
            "gen_ai.operation.name": "execute_tool",
        }
    ).observations[0]
    assert (tool.input, tool.output) == ({"x": 1}, 2)


def test_structured_attribute_values_decode():
    kv = {"kvlistValue": {"values": [{"key": "a", "value": {"intValue": "1"}}]}}
    raw = span({})
    raw["attributes"] = [
        {"key": "langfuse.observation.metadata.obj", "value": kv},
        {"key": "langfuse.observation.metadata.raw", "value": {"bytesValue": "AQI="}},
        {"key": "langfuse.observation.metadata.none", "value": {}},
    ]
    metadata = convert_export(export(raw), project_id=PROJECT).observations[0].metadata
    assert metadata is not None
    assert (metadata["obj"], metadata["raw"], metadata["none"]) == ({"a": 1}, "0102", None)


def test_openinference_messages_and_model_parameters():
    obs = one(
        {
            "openinference.span.kind": "LLM",
            "llm.model_name": "m",
            "llm.input_messages.0.message.role": "user",
            "llm.input_messages.0.message.content": "hi",
            "llm.output_messages.0.message.content": "yo",
            "llm.invocation_parameters": '{"temperature": 1}',
            "gen_ai.response.finish_reasons": ["stop"],
        }
    ).observations[0]
    assert obs.input == [{"role": "user", "content": "hi"}]
    assert obs.output == [{"content": "yo"}]
    assert obs.model_parameters == {"temperature": 1, "finish_reasons": ["stop"]}


def test_non_finite_costs_are_dropped_and_long_names_kept():
    obs = one(
        {
            "langfuse.observation.cost_details": '{"input": NaN, "output": 1}',
            "gen_ai.usage.cost": float("inf"),
        },
        name="n" * 5000,
    ).observations[0]
    assert obs.cost_details == {"output": 1.0}
    assert obs.name == "n" * 5000


def test_openai_usage_in_langfuse_usage_details_is_normalized():
    usage = json.dumps(
        {"prompt_tokens": 12, "completion_tokens": 4, "prompt_tokens_details": {"cached_tokens": 2}}
    )
    obs = one({"langfuse.observation.usage_details": usage}).observations[0]
    assert obs.usage_details == {"input": 10, "output": 4, "input_cached_tokens": 2}
