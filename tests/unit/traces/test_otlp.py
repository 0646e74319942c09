"""OTLP-JSON exports -> records: the SDK's exports, trace attributes and trace updates."""

from __future__ import annotations

from datetime import UTC, datetime

import msgspec
import pytest

from axonal_events.traces import ObservationLevel, ObservationType
from axonal_traces import convert_export, experiment_id
from axonal_tracking.domain.trace_merge import merge

from .conftest import PROJECT, TRACE, export, one, otlp_export, span


def test_the_sdk_export_becomes_every_observation_type_with_its_fields():
    records = convert_export(otlp_export("otel-sdk-export.json"), project_id=PROJECT)
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
    llm = by_name["draft-reply"]
    assert llm.model == "gpt-4o-mini"
    assert llm.model_parameters == {"temperature": 0.3, "max_tokens": 128}
    assert llm.usage_details == {"input": 42, "output": 9, "cache_read_input_tokens": 8}
    assert llm.cost_details == {"input": 6.3e-06, "output": 5.4e-06}
    assert (llm.prompt_name, llm.prompt_version) == ("support-reply", 3)
    assert llm.input == [{"role": "user", "content": "How do I reset my password?"}]
    assert llm.parent_observation_id == by_name["planner"].id
    assert by_name["search-docs"].input == "reset my password"  # plain strings stay strings
    assert by_name["search-docs"].metadata is not None
    assert by_name["search-docs"].metadata["k"] == 2
    assert by_name["embed-question"].usage_details == {"input": 6}
    event = by_name["cache-miss"]
    assert (event.level, event.status_message) == (ObservationLevel.WARNING, "no cached reply")
    assert event.end_time == event.start_time
    root = by_name["handle-ticket"]
    assert root.parent_observation_id is None
    assert (root.environment, root.release, root.version) == ("fixtures", "rel-3", "app-2.0")
    full = [t for t in records.traces if t.timestamp is not None]
    assert len(full) == 1
    trace = full[0]
    assert trace.name == "support-bot"
    assert (trace.user_id, trace.session_id) == ("user-7", "sess-fixtures")
    assert trace.tags == ["fixtures", "support"]
    assert trace.metadata == {"tenant": "globex"}
    assert (trace.input, trace.output) == (
        {"ticket": "reset my password"},
        {"reply": "Use the reset link."},
    )
    assert trace.timestamp == root.start_time


def test_experiment_linkage_is_read_and_the_sdk_derived_id_matches_ours():
    records = convert_export(otlp_export("otel-experiment-export.json"), project_id=PROJECT)
    linked = [o for o in records.observations if o.experiment]
    assert len(linked) == len(records.observations) == 6
    link = linked[0].experiment
    assert link is not None
    assert link.id == "69b43114bcf89457" == experiment_id(PROJECT, "ds-fixtures-01", "run-fixtures")
    assert link.dataset_id == "ds-fixtures-01"
    assert link.metadata == {"model": "stub"}
    assert {o.environment for o in records.observations} == {"sdk-experiment"}
    assert {o.type for o in records.observations} == {
        ObservationType.SPAN,
        ObservationType.EVALUATOR,
    }


def test_the_gen_ai_export_of_a_third_party_instrumentation():
    records = convert_export(otlp_export("otel-genai-export.json"), project_id=PROJECT)
    by_type = {o.type: o for o in records.observations}
    assert set(by_type) == {
        ObservationType.GENERATION,
        ObservationType.EMBEDDING,
        ObservationType.TOOL,
        ObservationType.AGENT,
    }
    chat = by_type[ObservationType.GENERATION]
    assert chat.model == "gpt-4o-2024-08-06"  # the response's model wins over the request's
    assert chat.usage_details == {"input": 120, "output": 30}
    assert chat.input == [{"role": "user", "content": "summarise the ticket"}]
    assert by_type[ObservationType.EMBEDDING].usage_details == {"input": 12}
    tool = by_type[ObservationType.TOOL]
    assert (tool.level, tool.status_message) == (
        ObservationLevel.ERROR,
        "search backend timed out",
    )
    root = next(t for t in records.traces if t.timestamp is not None)
    assert (root.user_id, root.session_id) == ("user-9", "sess-genai")


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
