"""OTLP-JSON exports -> records: observation types and the attribute conventions of other SDKs."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from axonal_events.traces import ObservationLevel, ObservationType
from axonal_traces import convert_export

from .conftest import PROJECT, export, one, span


@pytest.mark.parametrize(
    ("attrs", "expected"),
    [
        ({"langfuse.observation.type": "tool"}, ObservationType.TOOL),
        ({"openinference.span.kind": "LLM"}, ObservationType.GENERATION),
        ({"openinference.span.kind": "RETRIEVER"}, ObservationType.RETRIEVER),
        ({"gen_ai.operation.name": "chat"}, ObservationType.GENERATION),
        ({"gen_ai.operation.name": "embeddings"}, ObservationType.EMBEDDING),
        ({"gen_ai.operation.name": "invoke_agent"}, ObservationType.AGENT),
        ({"gen_ai.operation.name": "execute_tool"}, ObservationType.TOOL),
        ({"ai.operationId": "ai.generateText.doGenerate"}, ObservationType.GENERATION),
        ({"ai.operationId": "ai.toolCall"}, ObservationType.TOOL),
        ({"genkit:metadata:subtype": "tool"}, ObservationType.TOOL),
        ({"gen_ai.request.model": "gpt-4o"}, ObservationType.GENERATION),
        ({"llm.model_name": "m"}, ObservationType.GENERATION),
        ({"other": 1}, ObservationType.SPAN),
        # the direct attribute wins over every inference
        (
            {"langfuse.observation.type": "chain", "gen_ai.request.model": "m"},
            ObservationType.CHAIN,
        ),
        (
            {"openinference.span.kind": "TOOL", "gen_ai.operation.name": "chat"},
            ObservationType.TOOL,
        ),
    ],
)
def test_type_inference_in_priority_order(attrs, expected):
    assert one(attrs).observations[0].type is expected


def test_old_python_sdks_generations_sent_as_spans_are_generations():
    attrs = {"langfuse.observation.type": "span", "langfuse.observation.model.name": "m"}
    old = convert_export(export(span(attrs), version="3.2.1"), project_id=PROJECT)
    new = convert_export(export(span(attrs), version="5.0.4"), project_id=PROJECT)
    assert old.observations[0].type is ObservationType.GENERATION
    assert new.observations[0].type is ObservationType.SPAN


def test_environment_release_version_from_span_or_resource():
    resource = {
        "deployment.environment.name": "Prod",
        "langfuse.release": "r1",
        "service.version": "9",
    }
    obs = convert_export(export(span({}), resource=resource), project_id=PROJECT).observations[0]
    assert (obs.environment, obs.release, obs.version) == ("prod", "r1", "9")
    obs = convert_export(
        export(span({"langfuse.environment": "dev", "langfuse.version": "2"}), resource=resource),
        project_id=PROJECT,
    ).observations[0]
    assert (obs.environment, obs.version) == ("dev", "2")


def test_foreign_scopes_keep_their_attributes_in_metadata():
    records = convert_export(
        export(
            span({"http.method": "GET", "n": 3}),
            resource={"service.name": "svc"},
            scope="my.instrumentation",
            version="1",
        ),
        project_id=PROJECT,
    )
    metadata = records.observations[0].metadata
    assert metadata is not None
    assert metadata["attributes"] == {"http.method": "GET", "n": "3"}
    assert metadata["resourceAttributes"] == {"service.name": "svc"}
    assert metadata["scope"]["name"] == "my.instrumentation"


def test_gen_ai_usage_is_normalized_and_cost_read():
    obs = one(
        {
            "gen_ai.request.model": "gpt-4o",
            "gen_ai.usage.input_tokens": 100,
            "gen_ai.usage.output_tokens": 50,
            "gen_ai.usage.cache_read_input_tokens": 30,
            "gen_ai.usage.reasoning_tokens": 10,
            "gen_ai.usage.cost": 0.5,
            "gen_ai.request.temperature": 0.2,
        }
    ).observations[0]
    assert obs.usage_details == {
        "input": 70,
        "output": 40,
        "input_cached_tokens": 30,
        "output_reasoning_tokens": 10,
    }
    assert obs.cost_details == {"total": 0.5}
    assert obs.model_parameters == {"temperature": 0.2}


def test_openinference_token_counts_and_cost():
    obs = one(
        {
            "llm.model_name": "m",
            "llm.token_count.prompt": 7,
            "llm.token_count.completion": 3,
            "llm.token_count.total": 10,
            "llm.cost.total": 0.1,
            "input.value": '{"q": 1}',
            "output.value": "a",
        }
    ).observations[0]
    assert obs.usage_details == {"input": 7, "output": 3, "total": 10}
    assert obs.cost_details == {"total": 0.1}
    assert (obs.input, obs.output) == ({"q": 1}, "a")


def test_gen_ai_messages_with_system_instructions():
    obs = one(
        {
            "gen_ai.input.messages": '[{"role": "user", "content": "hi"}]',
            "gen_ai.system_instructions": "be brief",
            "gen_ai.output.messages": '[{"role": "a"}]',
        }
    ).observations[0]
    assert obs.input == [
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": "hi"},
    ]
    assert obs.output == [{"role": "a"}]


def test_flattened_prompt_attributes_and_span_events():
    obs = one(
        {
            "gen_ai.prompt.0.role": "user",
            "gen_ai.prompt.0.content": "hi",
            "gen_ai.completion.0.content": "yo",
        }
    ).observations[0]
    assert obs.input == [{"role": "user", "content": "hi"}]
    assert obs.output == [{"content": "yo"}]
    events = [
        {
            "name": "gen_ai.user.message",
            "attributes": [{"key": "content", "value": {"stringValue": "q"}}],
        }
    ]
    obs = one({}, events=events).observations[0]
    assert obs.input == [{"role": "user", "content": "q"}]


def test_level_and_status_from_the_span_status():
    obs = one({}, status={"code": 2, "message": "boom"}).observations[0]
    assert (obs.level, obs.status_message) == (ObservationLevel.ERROR, "boom")
    obs = one({}, status={"code": "STATUS_CODE_ERROR"}).observations[0]
    assert obs.level is ObservationLevel.ERROR
    obs = one({"langfuse.observation.level": "debug"}).observations[0]
    assert obs.level is ObservationLevel.DEBUG


def test_name_from_tool_conventions_and_completion_start_time():
    obs = one(
        {
            "gen_ai.tool.name": "search",
            "langfuse.observation.completion_start_time": '"2023-11-14T22:13:20.5Z"',
        }
    ).observations[0]
    assert obs.name == "search"
    assert obs.type is ObservationType.TOOL
    assert obs.completion_start_time == datetime(2023, 11, 14, 22, 13, 20, 500000, tzinfo=UTC)


def test_prompt_link_only_on_generations():
    attrs = {"langfuse.observation.prompt.name": "p", "langfuse.observation.prompt.version": 2}
    assert one(attrs).observations[0].prompt_name is None
    gen = one({**attrs, "langfuse.observation.type": "generation"}).observations[0]
    assert (gen.prompt_name, gen.prompt_version) == ("p", 2)
