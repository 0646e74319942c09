"""The Langfuse-shaped answers: camelCase keys, derived fields, and user data as stored."""

from datetime import UTC, datetime, timedelta

from axonal_api.public_bodies import (
    Cursored,
    CursorMeta,
    LangfuseListedScore,
    LangfuseModel,
    LangfuseObservation,
    LangfuseScore,
    LangfuseTrace,
    LangfuseTraceDetail,
    Paged,
    PageInfo,
)
from axonal_events.api_keys import KeyProject
from axonal_events.llm_models import ModelDefinition
from axonal_events.trace_reads import ObservationView, PageMeta, ScoreTrace, ScoreView, TraceView

T0 = datetime(2026, 12, 1, tzinfo=UTC)
PROJECT = KeyProject(id="p1", owner="acme", name="llm")


def _observation(**extra):
    return ObservationView(
        id="o1",
        project_id="p1",
        trace_id="t1",
        type="GENERATION",
        start_time=T0,
        end_time=T0 + timedelta(seconds=2),
        completion_start_time=T0 + timedelta(seconds=0.5),
        input={"messages": [{"role_name": "user"}]},
        usage_details={"input": 1000, "output": 500, "total": 1500},
        cost_details={"input": 0.00015, "output": 0.0003},
        created_at=T0,
        updated_at=T0,
        **extra,
    )


def _dump(model):
    return model.model_dump(mode="json", by_alias=True)


def test_an_observation_has_langfuse_names_and_derived_fields():
    doc = _dump(LangfuseObservation.of(_observation()))
    assert doc["traceId"] == "t1"
    assert doc["startTime"].startswith("2026-12-01T00:00:00")
    assert doc["usage"] == {"input": 1000, "output": 500, "total": 1500, "unit": "TOKENS"}
    assert doc["usageDetails"] == {"input": 1000, "output": 500, "total": 1500}
    assert doc["calculatedInputCost"] == 0.00015
    assert abs(doc["calculatedTotalCost"] - 0.00045) < 1e-12  # summed when no total is given
    assert (doc["latency"], doc["timeToFirstToken"]) == (2.0, 0.5)
    assert doc["input"] == {"messages": [{"role_name": "user"}]}  # user data as stored
    assert "costSource" not in doc


def test_a_trace_in_a_list_names_its_children_and_in_full_holds_them():
    view = TraceView(
        id="t1",
        project_id="p1",
        timestamp=T0,
        metadata={"snake_key": 1},
        created_at=T0,
        updated_at=T0,
        total_cost=0.00045,
        observation_ids=["o1"],
        score_ids=["s1"],
        run_uuid="r" * 32,
    )
    listed = _dump(LangfuseTrace.of(view, PROJECT))
    assert (listed["observations"], listed["scores"]) == (["o1"], ["s1"])
    assert listed["htmlPath"] == "/project/p1/traces/t1"
    assert listed["metadata"] == {"snake_key": 1}
    assert (listed["totalCost"], listed["runUuid"]) == (0.00045, "r" * 32)
    score = ScoreView(
        id="s1",
        project_id="p1",
        name="quality",
        data_type="CATEGORICAL",
        string_value="good",
        source="API",
        timestamp=T0,
        created_at=T0,
        updated_at=T0,
    )
    full = _dump(LangfuseTraceDetail.of(view, PROJECT, [_observation()], [score]))
    assert [o["id"] for o in full["observations"]] == ["o1"]
    assert full["scores"][0]["stringValue"] == "good"
    assert full["scores"][0]["value"] == 0  # a label without a config, as Langfuse has it


def test_pages_carry_their_meta_in_camel_case():
    meta = PageMeta.of(page=2, limit=10, total=31)
    paged = _dump(Paged[LangfuseScore](data=[], meta=PageInfo.of(meta)))
    assert paged["meta"] == {"page": 2, "limit": 10, "totalItems": 31, "totalPages": 4}
    cursored = _dump(Cursored[LangfuseScore](data=[], meta=CursorMeta(cursor="c2")))
    assert cursored["meta"] == {"cursor": "c2"}


def test_a_model_definition_as_langfuse_names_it():
    definition = ModelDefinition.model_validate(
        {
            "id": "m1",
            "model_name": "gpt-4o-mini",
            "match_pattern": "(?i)^gpt-4o-mini$",
            "tiers": [{"name": "Standard", "is_default": True, "prices": {"input": 1.5e-7}}],
            "tokenizer_model": "gpt-4o",
            "managed": True,
        }
    )
    doc = _dump(LangfuseModel.of(definition))
    assert doc["modelName"] == "gpt-4o-mini"
    assert doc["inputPrice"] == 1.5e-7
    assert doc["prices"] == {"input": {"price": 1.5e-7}}
    assert doc["tokenizerConfig"] == {"tokenizerModel": "gpt-4o"}
    assert doc["isLangfuseManaged"] is True
    assert doc["pricingTiers"][0]["id"] == "m1:Standard"


def test_a_listed_score_carries_its_trace_when_asked():
    score = ScoreView(
        id="s1",
        project_id="p1",
        name="quality",
        data_type="NUMERIC",
        value=0.5,
        source="API",
        trace_id="t1",
        timestamp=T0,
        created_at=T0,
        updated_at=T0,
        trace=ScoreTrace(user_id="u1", tags=["a"], environment="prod", session_id="s"),
    )
    listed = _dump(LangfuseListedScore.listed(score, with_trace=True))
    assert listed["trace"] == {
        "userId": "u1",
        "tags": ["a"],
        "environment": "prod",
        "sessionId": "s",
    }
    assert _dump(LangfuseListedScore.listed(score, with_trace=False))["trace"] is None
    assert "trace" not in _dump(LangfuseScore.of(score))  # a trace's own scores do not repeat it
