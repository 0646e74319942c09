"""Which definition prices a generation, which tier applies, and what definitions accept."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from pydantic import ValidationError

from axonal_events.llm_models import ModelDefinition, ModelSpec, PricingTier
from axonal_traces import Pricing, compute_cost, find_model, shipped_models
from axonal_traces.pricing import tier_of

JAN = datetime(2026, 1, 1, tzinfo=UTC)
JUN = datetime(2026, 6, 1, tzinfo=UTC)


def _default(**prices: float) -> PricingTier:
    return PricingTier(name="default", is_default=True, prices=prices)


def _own(model_id: str, pattern: str, start: datetime | None = None, **prices: float):
    return ModelDefinition(
        id=model_id,
        project_id="p",
        model_name=model_id,
        match_pattern=pattern,
        start_date=start,
        tiers=[_default(**prices)],
    )


def test_a_project_definition_comes_before_the_shipped_one():
    own = _own("cheap-4o", r"(?i)^gpt-4o$", input=1e-7)
    pricing = Pricing([own])
    assert pricing.find("gpt-4o") == own
    assert pricing.find("gpt-4o-mini") == find_model("gpt-4o-mini")  # not its pattern
    assert Pricing().find("gpt-4o") == find_model("gpt-4o")
    assert Pricing().find("my-model") is None


def test_the_latest_definition_that_has_started_applies():
    always = _own("always", "^m$", input=3.0)
    from_jan = _own("from-jan", "^m$", JAN, input=2.0)
    from_jun = _own("from-jun", "^m$", JUN, input=1.0)
    pricing = Pricing([always, from_jun, from_jan])
    assert pricing.find("m", datetime(2025, 12, 1, tzinfo=UTC)) == always
    assert pricing.find("m", datetime(2026, 3, 1, tzinfo=UTC)) == from_jan
    assert pricing.find("m", datetime(2026, 7, 1, tzinfo=UTC)) == from_jun


def test_a_tier_applies_when_all_its_conditions_hold_first_by_priority():
    definition = ModelDefinition(
        id="gemini",
        model_name="gemini",
        match_pattern="^gemini$",
        tiers=[
            _default(input=1.0, output=10.0),
            PricingTier.model_validate(
                {
                    "name": "long context",
                    "priority": 1,
                    "conditions": [
                        {"usage_detail_pattern": "^input", "operator": "gt", "value": 200}
                    ],
                    "prices": {"input": 2.0, "output": 20.0},
                }
            ),
            PricingTier.model_validate(
                {
                    "name": "batch",
                    "priority": 0,
                    "conditions": [
                        {"source": "metadata", "key": "mode", "values": ["batch"]},
                        {"usage_detail_pattern": "^input", "operator": "gt", "value": 200},
                    ],
                    "prices": {"input": 0.5, "output": 5.0},
                }
            ),
        ],
    )
    short = {"input": 100, "output": 1}
    long = {"input": 150, "input_cached_tokens": 100, "output": 1}  # 250 input tokens in all
    assert compute_cost(definition, short) == {"input": 100.0, "output": 10.0, "total": 110.0}
    assert compute_cost(definition, long)["input"] == 300.0
    batch = compute_cost(definition, long, metadata={"mode": "batch"})
    assert batch is not None
    assert batch["input"] == 75.0  # the batch tier comes first (priority 0)
    assert compute_cost(definition, short, metadata={"mode": "batch"})["input"] == 100.0
    assert tier_of(definition, long, metadata={"mode": "batch"}).name == "batch"
    assert tier_of(definition, short).is_default


def test_a_definition_priced_by_total_only_charges_the_total():
    definition = _own("flat", "^flat$", total=0.5)
    assert compute_cost(definition, {"input": 3, "output": 1, "total": 4}) == {"total": 2.0}
    assert compute_cost(definition, {"input": 3}) is None


def test_shipped_definitions_are_listed_with_stable_ids():
    shipped = shipped_models()
    assert shipped[0].id == f"shipped-{shipped[0].model_name}"
    assert all(d.managed and d.project_id is None for d in shipped)
    assert len({d.id for d in shipped}) == len(shipped)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"match_pattern": "(unclosed"}, "match_pattern is not a valid regular expression"),
        ({"tiers": []}, "at least 1 item"),
        (
            {"tiers": [{"name": "a", "is_default": True, "prices": {"input": 1}}] * 2},
            "exactly one tier must be the default, not 2",
        ),
        (
            {
                "tiers": [
                    {"name": "a", "is_default": True, "prices": {"input": 1}},
                    {
                        "name": "a",
                        "conditions": [{"source": "metadata", "key": "k", "values": ["v"]}],
                        "prices": {"input": 2},
                    },
                ]
            },
            "tier names must be unique",
        ),
        (
            {"tiers": [{"name": "a", "priority": 1, "prices": {"input": 1}}]},
            "a tier other than the default needs conditions",
        ),
        (
            {"tiers": [{"name": "a", "is_default": True, "prices": {"input": -1}}]},
            "greater than or equal to 0",
        ),
    ],
)
def test_bad_definitions_are_refused_with_the_reason(change, message):
    spec = {
        "project_id": "p",
        "model_name": "m",
        "match_pattern": "^m$",
        "tiers": [{"name": "default", "is_default": True, "prices": {"input": 1}}],
    } | change
    with pytest.raises(ValidationError, match=message):
        ModelSpec.model_validate(spec)
