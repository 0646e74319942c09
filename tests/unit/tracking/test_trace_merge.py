"""Merging trace records by event time, and the rows (usage, cost) derived from the state."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from axonal_events.llm_models import ModelDefinition, PricingTier
from axonal_traces.pricing import Pricing
from axonal_tracking.domain.trace_merge import merge
from axonal_tracking.domain.trace_rows import observation_row, trace_row

EARLIEST = frozenset({"timestamp"})
SHIPPED = Pricing()


def test_later_fields_win_whatever_the_arrival_order():
    updates = [
        (2, {"name": "new", "tags": ["b"]}),
        (1, {"name": "old", "user_id": "u", "tags": ["a"]}),
    ]
    state = merge(None, updates)
    assert state["v"] == {"name": "new", "user_id": "u", "tags": ["a", "b"]}
    late_old = merge(state, [(0, {"name": "older", "release": "r"})])
    assert late_old["v"]["name"] == "new"  # an older record sets only what is unset
    assert late_old["v"]["release"] == "r"


def test_a_single_record_leaves_no_times_and_later_ones_only_their_own():
    state = merge(None, [(5, {"name": "a", "metadata": {"k": 1}, "tags": ["x"]})])
    assert state == {"v": {"name": "a", "metadata": {"k": 1}, "tags": ["x"]}, "t": {}, "first": 5}
    state = merge(state, [(7, {"release": "r"})])
    assert (state["t"], state["first"]) == ({"release": 7}, 5)


def test_fields_set_first_keep_their_time_when_an_earlier_record_arrives():
    state = merge(None, [(5, {"name": "a", "metadata": {"k": 1}})])
    state = merge(state, [(1, {"name": "b", "version": "v", "metadata": {"k": 0, "j": 0}})])
    assert state["v"] == {"name": "a", "version": "v", "metadata": {"k": 1, "j": 0}}
    assert (state["t"], state["first"]) == ({"name": 5, "metadata.k": 5}, 1)
    state = merge(state, [(3, {"name": "c", "metadata": {"k": 3}})])
    assert state["v"]["name"] == "a"
    assert state["v"]["metadata"] == {"k": 1, "j": 0}


def test_metadata_merges_key_by_key():
    state = merge(None, [(1, {"metadata": {"a": 1, "b": 1}}), (2, {"metadata": {"b": 2}})])
    state = merge(state, [(0, {"metadata": {"a": 0, "c": 0}})])
    assert state["v"]["metadata"] == {"a": 1, "b": 2, "c": 0}


def test_applying_the_same_records_again_changes_nothing():
    updates = [(1, {"name": "x", "tags": ["a"], "metadata": {"k": 1}}), (3, {"output": 4})]
    once = merge(None, updates)
    assert merge(once, updates) == once


def test_earliest_fields_keep_the_smallest_time():
    state = merge(None, [(5, {"timestamp": "2026-01-01T00:00:05+00:00"})], earliest=EARLIEST)
    state = merge(state, [(9, {"timestamp": "2026-01-01T00:00:01+00:00"})], earliest=EARLIEST)
    state = merge(state, [(9, {"timestamp": "2026-01-01T00:00:03Z"})], earliest=EARLIEST)
    assert trace_row("p", "t", state)["timestamp"] == datetime(2026, 1, 1, 0, 0, 1, tzinfo=UTC)


def test_a_trace_without_timestamp_starts_at_its_first_event():
    row = trace_row("p", "t", merge(None, [(1_000_000, {"name": "n"})]))
    assert row["timestamp"] == datetime(1970, 1, 1, 0, 0, 1, tzinfo=UTC)
    assert (row["environment"], row["tags"], row["metadata"]) == ("default", [], {})


def generation(**fields):
    return merge(None, [(1, {"trace_id": "t", "type": "GENERATION", **fields})])


def test_cost_is_computed_from_usage_and_the_total_added():
    row = observation_row(
        "p", "o", generation(model="gpt-4o", usage_details={"input": 100}), SHIPPED, None
    )
    assert row["usage_details"] == {"input": 100, "total": 100}
    assert row["cost_source"] == "computed"
    assert row["cost_details"] == {
        "input": pytest.approx(100 * 2.5e-6),
        "total": pytest.approx(100 * 2.5e-6),
    }
    assert row["total_cost"] == pytest.approx(100 * 2.5e-6)
    assert (row["model_id"], row["pricing_tier"]) == ("shipped-gpt-4o", "default")


def test_client_cost_is_kept_as_sent_and_totalled_as_langfuse_does():
    sent = {"input": 0.5, "output": 0.25}
    row = observation_row(
        "p",
        "o",
        generation(model="gpt-4o", usage_details={"input": 9}, cost_details=sent),
        SHIPPED,
        None,
    )
    assert row["cost_details"] == sent | {"total": 0.75}  # totalled, as Langfuse does
    assert (row["cost_source"], row["total_cost"]) == ("client", 0.75)
    assert (row["model_id"], row["pricing_tier"]) == ("shipped-gpt-4o", None)  # matched, unused
    other = {"input": 0.5, "input_cached": 0.25}  # not only input and output: no total added
    row = observation_row("p", "o", generation(model="gpt-4o", cost_details=other), SHIPPED, None)
    assert (row["cost_details"], row["total_cost"]) == (other, 0.75)


def test_unknown_models_cost_nothing():
    row = observation_row(
        "p", "o", generation(model="mine", usage_details={"input": 9}), SHIPPED, None
    )
    assert (row["cost_details"], row["cost_source"], row["total_cost"]) == ({}, "none", 0.0)
    assert row["model_id"] is None


def test_text_without_usage_is_counted_for_known_models_only():
    calls = []

    def count(model, value):
        calls.append((model, value))
        return len(str(value))

    row = observation_row(
        "p", "o", generation(model="gpt-4o", input="hello", output="hi"), SHIPPED, count
    )
    assert row["usage_details"] == {"input": 5, "output": 2, "total": 7}
    assert row["cost_source"] == "computed"
    span = merge(None, [(1, {"trace_id": "t", "type": "SPAN", "model": "gpt-4o", "input": "x"})])
    assert observation_row("p", "o", span, SHIPPED, count)["usage_details"] == {}
    assert (
        observation_row(
            "p", "o", generation(model="gpt-4o", input="x"), SHIPPED, lambda m, v: None
        )["usage_details"]
        == {}
    )
    assert len(calls) == 2


def test_a_project_definition_prices_and_tokenizes_its_model():
    own = ModelDefinition(
        id="m1",
        project_id="p",
        model_name="ft-support",
        match_pattern=r"^ft:gpt-4o-mini:acme:support$",
        tiers=[PricingTier(name="default", is_default=True, prices={"input": 1e-6})],
        tokenizer_model="gpt-4o-mini",
    )
    counted = []

    def count(model, value):
        counted.append(model)
        return 10

    state = generation(model="ft:gpt-4o-mini:acme:support", input="hello")
    row = observation_row("p", "o", state, Pricing([own]), count)
    assert counted == ["gpt-4o-mini"]
    assert row["cost_details"] == {"input": pytest.approx(1e-5), "total": pytest.approx(1e-5)}
