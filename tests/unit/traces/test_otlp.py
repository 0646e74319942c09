"""OTLP-JSON exports -> records: Langfuse's attribute mapping, rule by rule."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import msgspec
import pytest

from axonal_events.traces import ObservationLevel, ObservationType
from axonal_traces import OtlpFormatError, convert_export, experiment_id
from axonal_tracking.domain.trace_merge import merge

from .conftest import export, otlp_export, span

PROJECT = "proj-local-0001"
TRACE = "0af7651916cd43dd8448eb211c80319c"


def one(attrs, **fields):
    return convert_export(export(span(attrs, **fields)), project_id=PROJECT)


def test_the_sdk_capture_becomes_every_observation_type_with_its_fields():
    records = convert_export(
        otlp_export("013_POST_api_public_otel_v1_traces.json"), project_id=PROJECT
    )
    by_name = {o.name: o for o in records.observations}
    assert {o.type for o in records.observations} == {
        ObservationType.SPAN,
        ObservationType.RETRIEVER,
        ObservationType.TOOL,
        ObservationType.GENERATION,
        ObservationType.EMBEDDING,
        ObservationType.GUARDRAIL,
        ObservationType.CHAIN,
        ObservationType.AGENT,
        ObservationType.EVENT,
    }
    llm = by_name["llm-call"]
    assert llm.model == "gpt-4o-mini"
    assert llm.model_parameters == {"temperature": 0, "max_tokens": 64}
    assert llm.usage_details == {"input": 21, "output": 3, "cache_read_input_tokens": 5}
    assert llm.cost_details == {"input": 3.15e-05, "output": 1.8e-06}
    assert (llm.prompt_name, llm.prompt_version) == ("qa-prompt", 1)
    assert llm.input == [{"role": "user", "content": "Answer 2+2? briefly in en."}]
    assert by_name["retrieve"].input == "2+2?"  # plain strings stay strings
    assert by_name["retrieve"].metadata is not None
    assert by_name["retrieve"].metadata["k"] == 2
    event = by_name["cache-miss"]
    assert (event.level, event.status_message) == (ObservationLevel.WARNING, "miss")
    root = by_name["handle-request"]
    assert root.parent_observation_id is None
    assert (root.environment, root.release, root.version) == ("capture-test", "r-0.0.1", "app-1.2")
    full = [t for t in records.traces if t.timestamp is not None]
    assert len(full) == 1
    trace = full[0]
    assert trace.name == "qa-pipeline"
    assert (trace.user_id, trace.session_id) == ("user-42", "sess-7")
    assert trace.tags == ["capture", "demo"]
    assert trace.metadata == {"tenant": "acme"}
    assert (trace.input, trace.output) == ({"q": "2+2?"}, {"answer": "4"})
    assert trace.timestamp == root.start_time


def test_experiment_linkage_is_read_and_the_sdk_derived_id_matches_ours():
    records = convert_export(
        otlp_export("022_POST_api_public_otel_v1_traces.json"), project_id=PROJECT
    )
    linked = [o for o in records.observations if o.experiment]
    assert linked
    link = linked[0].experiment
    assert link is not None
    assert link.id == "ca36035f1c0e2a4c" == experiment_id(PROJECT, "ds-9091fb7df213", "run-1")
    assert link.dataset_id == "ds-9091fb7df213"
    assert link.metadata == {"model": "fake"}
    assert {o.environment for o in records.observations} >= {"sdk-experiment"}


def test_an_experiment_without_id_gets_the_derived_one():
    records = one({"langfuse.experiment.dataset.id": "ds", "langfuse.experiment.name": "r"})
    link = records.observations[0].experiment
    assert link is not None
    assert link.id == experiment_id(PROJECT, "ds", "r")


def test_ids_times_and_the_root_trace():
    records = one({})
    (obs,) = records.observations
    assert (obs.id, obs.trace_id, obs.type) == ("b7ad6b7169203331", TRACE, ObservationType.SPAN)
    assert obs.start_time == datetime(2023, 11, 14, 22, 13, 20, tzinfo=UTC)
    (trace,) = records.traces
    assert (trace.id, trace.name, trace.environment) == (TRACE, "op", "default")


def test_a_child_without_trace_attributes_makes_a_shallow_trace_once():
    child = {"parentSpanId": "1111111111111111"}
    records = convert_export(
        export(span({}, **child), span({}, spanId="2222222222222222", **child)), project_id=PROJECT
    )
    (trace,) = records.traces
    assert trace.name is None
    assert trace.timestamp is not None
    assert len(records.observations) == 2


def test_trace_attributes_on_a_child_update_the_trace():
    records = one(
        {
            "langfuse.trace.name": "t",
            "user.id": "u",
            "langfuse.trace.metadata": '{"a": 1}',
            "langfuse.trace.metadata.b": '"x"',
            "langfuse.trace.public": True,
        },
        parentSpanId="1111111111111111",
    )
    (trace,) = records.traces
    assert (trace.name, trace.user_id, trace.public) == ("t", "u", True)
    assert trace.metadata == {"a": 1, "b": "x"}
    assert trace.timestamp is None  # a partial update does not move the trace's time


def child(number: int, end: int, attrs: dict) -> dict:
    """Child span ``number`` of the trace, ending ``end`` seconds after 1700000000."""
    return span(
        attrs,
        spanId=f"{number:016x}",
        parentSpanId="1111111111111111",
        endTimeUnixNano=f"{1700000000 + end}000000000",
    )


def test_repeated_trace_updates_keep_the_earliest_and_the_latest():
    ends = [5, 2, 9, 7, 1, 8]  # in span order
    stamped = [child(n + 1, end, {"user.id": "u", "session.id": "s"}) for n, end in enumerate(ends)]
    records = convert_export(export(*stamped, child(99, 6, {"user.id": "v"})), project_id=PROJECT)
    seconds = sorted(int(t.event_time.timestamp()) - 1700000000 for t in records.traces)
    assert seconds == [1, 6, 9]  # the earliest and latest of the repeats, and the other user
    assert len(records.observations) == len(ends) + 1


def test_repeated_trace_updates_merge_as_all_of_them_do():
    updates = [child(n + 1, end, {"user.id": "u", "langfuse.trace.name": "t"})
               for n, end in enumerate([4, 1, 6, 3])]  # fmt: skip
    spans = [*updates, child(99, 5, {"user.id": "w"})]
    kept = convert_export(export(*spans), project_id=PROJECT).traces
    each = [t for one in spans for t in convert_export(export(one), project_id=PROJECT).traces]
    assert len(kept) == 3
    assert merged(kept) == merged(each)
    assert merged(kept)["v"]["user_id"] == "u"  # set at 6 s, after "w" at 5 s


def merged(traces):
    """The state the tracking service merges ``traces`` (records of one trace) into."""
    updates = []
    for trace in traces:
        fields = msgspec.to_builtins(trace)
        del fields["id"], fields["event_time"]
        updates.append((int(trace.event_time.timestamp() * 1e6), fields))
    return merge(None, updates, earliest=frozenset({"timestamp"}))


def test_as_root_forces_a_full_trace():
    records = one({"langfuse.internal.as_root": True}, parentSpanId="1111111111111111")
    assert records.traces[0].timestamp is not None


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        (["a", "b"], ["a", "b"]),
        ('["a", "b"]', ["a", "b"]),
        ("a, b", ["a", "b"]),
    ],
)
def test_tags_arrive_as_arrays_json_or_comma_strings(tags, expected):
    assert one({"langfuse.trace.tags": tags}).traces[0].tags == expected


def test_compatible_trace_keys():
    trace = one(
        {
            "langfuse.user.id": "u",
            "gen_ai.conversation.id": "s",
            "tag.tags": "x",
            "langfuse.metadata.k": "1",
            "langfuse.public": "true",
        }
    ).traces[0]
    assert (trace.user_id, trace.session_id, trace.tags) == ("u", "s", ["x"])
    assert (trace.metadata, trace.public) == ({"k": 1}, True)


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
