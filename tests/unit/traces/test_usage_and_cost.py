"""Usage normalization, experiment ids and model prices."""

from __future__ import annotations

import pytest

from axonal_traces import compute_cost, experiment_id, find_model
from axonal_traces.usage import from_attributes, from_client, with_total


def test_usage_totals_are_added_only_when_missing():
    assert with_total({"input": 3, "output": 2}) == {"input": 3, "output": 2, "total": 5}
    assert with_total({"input": 3, "total": 9}) == {"input": 3, "total": 9}
    assert with_total({}) == {}


def test_cache_creation_and_audio_are_split_off():
    usage = from_attributes(
        {
            "gen_ai.usage.prompt_tokens": 50,
            "gen_ai.usage.cache_creation_input_tokens": 20,
            "gen_ai.usage.completion_tokens": 9,
            "gen_ai.usage.output_audio_tokens": 4,
            "gen_ai.usage.cost": 3,
        }
    )
    assert usage == {"input": 30, "input_cache_creation": 20, "output": 5, "output_audio_tokens": 4}


def test_responses_api_usage():
    usage = from_client(
        {
            "input_tokens": 10,
            "output_tokens": 4,
            "total_tokens": 14,
            "input_tokens_details": {"cached_tokens": 2},
        }
    )
    assert usage == {"input": 8, "output": 4, "total": 14, "input_cached_tokens": 2}


def test_experiment_id_is_the_sdks():
    assert experiment_id("proj-local-0001", "ds-9091fb7df213", "run-1") == "ca36035f1c0e2a4c"
    assert len(experiment_id("p", "d", "é")) == 16


@pytest.mark.parametrize(
    ("model", "name"),
    [
        ("gpt-4o", "gpt-4o"),
        ("gpt-4o-2024-08-06", "gpt-4o"),
        ("openai/gpt-4o-mini", "gpt-4o-mini"),
        ("claude-3-5-sonnet-20241022", "claude-3-5-sonnet"),
        ("gemini-2.5-pro", "gemini-2.5-pro"),
        ("text-embedding-3-small", "text-embedding-3-small"),
    ],
)
def test_models_match_their_definitions(model, name):
    found = find_model(model)
    assert found is not None
    assert found.model_name == name


def test_cost_from_usage():
    cost = compute_cost(
        find_model("gpt-4o-mini"),
        {
            "input": 1000,
            "output": 100,
            "input_cached_tokens": 200,
            "output_reasoning_tokens": 10,
            "total": 1310,
        },
    )
    assert cost is not None
    assert cost["input"] == pytest.approx(1000 * 0.15e-6)
    assert cost["output"] == pytest.approx(100 * 0.6e-6)
    assert cost["input_cached_tokens"] == pytest.approx(200 * 0.075e-6)
    assert cost["output_reasoning_tokens"] == pytest.approx(10 * 0.6e-6)  # at the output price
    assert cost["total"] == pytest.approx(sum(v for k, v in cost.items() if k != "total"))


def test_no_cost_for_unknown_models_or_unpriced_usage():
    assert compute_cost(find_model("my-model"), {"input": 1}) is None
    assert compute_cost(None, {"input": 1}) is None
    assert compute_cost(find_model("gpt-4o"), {"images": 1}) is None
