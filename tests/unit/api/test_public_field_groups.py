"""The field groups of ``/v2/observations`` and ``/v3/scores``, and the values they carry."""

from datetime import UTC, datetime, timedelta

import pytest

from axonal_api.observations_v2 import (
    ALWAYS,
    FIELD_GROUPS,
    LangfuseObservationV2,
    cut_metadata,
    field_groups,
    raw_text,
    wanted_keys,
)
from axonal_api.public_bodies import LangfuseTrace
from axonal_api.scores_v3 import (
    InvalidScoreQuery,
    LangfuseScoreV3,
    score_filters,
    score_groups,
    subject_of,
)
from axonal_api.trace_fields import TRACE_GROUPS, shaped, trace_groups
from axonal_events.api_keys import KeyProject
from axonal_events.trace_reads import ObservationView, ScoreView, TraceView

T0 = datetime(2026, 12, 1, tzinfo=UTC)


def _observation(**extra):
    fields = {
        "id": "o1",
        "project_id": "p1",
        "trace_id": "t1",
        "type": "GENERATION",
        "start_time": T0,
        "end_time": T0 + timedelta(seconds=2),
        "completion_start_time": T0 + timedelta(seconds=0.5),
        "output": 4,
        "metadata": {"long": "x" * 300, "keep": "y" * 300, "short": {"a": 1}},
        "model": "gpt-4o-mini",
        "usage_details": {"input": 1000, "output": 500, "total": 1500},
        "cost_details": {"input": 0.00015, "output": 0.0003, "total": 0.00045},
        "total_cost": 0.00045,
        "model_id": "shipped-gpt-4o-mini",
        "pricing_tier": "default",
        "model_prices": {"input": 1.5e-07, "output": 6e-07},
        "trace_name": "qa",
        "user_id": "u1",
        "session_id": "s1",
        "tags": ["a"],
        "trace_release": "r1",
        "created_at": T0,
        "updated_at": T0,
    }
    return ObservationView.model_validate(fields | extra)


def _sent(model):
    return model.model_dump(mode="json", by_alias=True, exclude_unset=True)


@pytest.mark.parametrize(
    ("fields", "groups"),
    [
        (None, ("core", "basic")),
        ("", ("core", "basic")),
        ("usage, model", ("core", "model", "usage")),
        ("nonsense", ("core",)),  # unknown names are dropped, not refused
        ("trace_context,core", ("core", "trace_context")),
    ],
)
def test_fields_name_the_groups(fields, groups):
    assert field_groups(fields) == groups


@pytest.mark.parametrize("group", list(FIELD_GROUPS))
def test_an_observation_carries_exactly_the_fields_of_its_groups(group):
    sent = _sent(LangfuseObservationV2.of(_observation(), field_groups(f"core,{group}")))
    assert set(sent) == set(FIELD_GROUPS["core"]) | set(FIELD_GROUPS[group]) | set(ALWAYS)
    assert set(sent) == wanted_keys(("core", group))


def test_the_groups_carry_trace_context_costs_and_raw_input_output():
    every = field_groups(",".join(FIELD_GROUPS))
    sent = _sent(LangfuseObservationV2.of(_observation(), every))
    assert (sent["totalCost"], sent["costDetails"]["total"]) == (0.00045, 0.00045)
    assert (sent["userId"], sent["sessionId"], sent["traceName"]) == ("u1", "s1", "qa")
    assert (sent["tags"], sent["release"], sent["isRootObservation"]) == (["a"], "r1", True)
    assert (sent["output"], sent["input"]) == ("4", None)
    assert (sent["latency"], sent["timeToFirstToken"]) == (2.0, 0.5)
    assert sent["internalModelId"] == sent["modelId"] == "shipped-gpt-4o-mini"
    assert (sent["inputPrice"], sent["outputPrice"], sent["totalPrice"]) == (
        "0.00000015",
        "0.0000006",
        None,
    )
    assert sent["usagePricingTierName"] == "default"


def test_the_matched_model_is_looked_up_only_for_the_model_group():
    sent = _sent(LangfuseObservationV2.of(_observation(), field_groups("usage")))
    assert (sent["modelId"], sent["inputPrice"]) == (None, None)


def test_metadata_values_are_cut_unless_expanded():
    cut = cut_metadata(_observation().metadata, ["keep"])
    assert cut == {"long": "x" * 200, "keep": "y" * 300, "short": {"a": 1}}
    assert cut_metadata({"big": {"k": "v" * 300}})["big"] == '{"k":"' + "v" * 194


def test_raw_text_is_what_a_client_sent():
    assert [raw_text(v) for v in (None, "hi", 4, {"é": [1]})] == [None, "hi", "4", '{"é":[1]}']


def _score(**extra):
    fields = {
        "id": "s1",
        "project_id": "p1",
        "name": "ok",
        "data_type": "BOOLEAN",
        "value": 1.0,
        "string_value": "True",
        "source": "API",
        "trace_id": "t1",
        "comment": "fine",
        "timestamp": T0,
        "created_at": T0,
        "updated_at": T0,
    }
    return ScoreView.model_validate(fields | extra)


def test_a_v3_score_value_has_its_data_types_type():
    assert _sent(LangfuseScoreV3.of(_score(), ("core",)))["value"] is True
    label = _score(data_type="CATEGORICAL", value=None, string_value="good")
    assert _sent(LangfuseScoreV3.of(label, ("core",)))["value"] == "good"
    number = _sent(LangfuseScoreV3.of(_score(data_type="NUMERIC", value=0.5), ("core",)))
    assert number["value"] == 0.5


def test_v3_score_groups_add_their_fields_and_refuse_unknown_names():
    core = _sent(LangfuseScoreV3.of(_score(), score_groups(None)))
    assert "comment" not in core
    assert "subject" not in core
    every = _sent(LangfuseScoreV3.of(_score(), score_groups("details,subject,annotation")))
    assert set(every) - set(core) == {
        "comment",
        "configId",
        "metadata",
        "subject",
        "authorUserId",
        "queueId",
    }
    assert every["subject"] == {"kind": "trace", "id": "t1"}
    with pytest.raises(InvalidScoreQuery, match="trace"):
        score_groups("details,trace")


def test_a_subject_is_the_most_specific_target():
    on_observation = subject_of(_score(observation_id="o1"))
    assert (on_observation.kind, on_observation.id, on_observation.trace_id) == (
        "observation",
        "o1",
        "t1",
    )
    assert subject_of(_score(trace_id=None, session_id="s")).kind == "session"
    assert subject_of(_score(dataset_run_id="e", observation_id="o1")).kind == "experiment"


def test_v3_filters_are_comma_separated_and_case_blind():
    filters = score_filters(
        {"traceId": "t1, t2", "source": "api", "dataType": "numeric", "value": "0.5,1"}, 0.0, None
    )
    assert filters["trace_id"] == ["t1", "t2"]
    assert (filters["source"], filters["data_type"]) == (["API"], ["NUMERIC"])
    assert (filters["values"], filters["value_min"]) == ([0.5, 1.0], 0.0)
    assert score_filters({"dataType": "BOOLEAN", "value": "true"}, None, None)["values"] == [1.0]
    labels = score_filters({"dataType": "CATEGORICAL", "value": "a,b"}, None, None)
    assert labels["labels"] == ["a", "b"]
    assert score_filters({"name": None, "id": ""}, None, None) == {
        "source": [],
        "data_type": [],
        "value_min": None,
        "value_max": None,
    }


@pytest.mark.parametrize(
    ("texts", "value_min", "refusal"),
    [
        ({"traceId": "t", "sessionId": "s"}, None, "cannot be combined"),
        ({"observationId": "o"}, None, "needs traceId"),
        ({"value": "1"}, None, "one dataType"),
        ({"dataType": "NUMERIC,BOOLEAN", "value": "1"}, None, "one dataType"),
        ({"dataType": "BOOLEAN", "value": "yes"}, None, "true or false"),
        ({"dataType": "NUMERIC", "value": "inf"}, None, "finite"),
        ({"dataType": "TEXT"}, 1.0, "NUMERIC"),
        ({"source": "robot"}, None, "source"),
    ],
)
def test_v3_filters_langfuse_refuses_are_refused(texts, value_min, refusal):
    with pytest.raises(InvalidScoreQuery, match=refusal):
        score_filters(texts, value_min, None)


def _trace():
    view = TraceView(
        id="t1",
        project_id="p1",
        timestamp=T0,
        input={"q": 1},
        created_at=T0,
        updated_at=T0,
        total_cost=0.5,
        latency=2.0,
        observation_ids=["o1"],
        score_ids=["s1"],
    )
    return LangfuseTrace.of(view, KeyProject(id="p1", owner="acme", name="llm"))


@pytest.mark.parametrize(
    ("fields", "groups"),
    [
        (None, set(TRACE_GROUPS)),
        ("io,nonsense", {"core", "io"}),
        ("nonsense", set(TRACE_GROUPS)),  # naming nothing known is naming nothing
    ],
)
def test_trace_fields_name_its_groups(fields, groups):
    assert trace_groups(fields) == groups


def test_a_trace_without_its_groups_is_sent_as_langfuse_sends_it():
    every = _sent(shaped(_trace(), trace_groups(None)))
    assert (every["input"], every["observations"], every["totalCost"]) == ({"q": 1}, ["o1"], 0.5)
    assert "bookmarked" in every  # every field is sent, defaults included
    core = _sent(shaped(_trace(), trace_groups("core")))
    assert not {"input", "output", "metadata"} & set(core)
    assert (core["observations"], core["scores"]) == ([], [])
    assert (core["totalCost"], core["latency"]) == (-1, -1)
