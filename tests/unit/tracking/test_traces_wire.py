"""The fast trace batch decoder agrees with the contract on what it accepts and what it means."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from axonal_bus.errors import Permanent
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_tracking.traces import wire as traces_wire
from axonal_tracking.traces.wire import KINDS, decode_trace_batch

AT = "2026-12-01T10:00:00.123456Z"
PROJECT = {"project_id": "p-1", "project": "acme/llm", "received_at": AT}


def body(**lists: list[dict[str, Any]]) -> bytes:
    return json.dumps({**PROJECT, **lists}).encode()


def trace(**overrides: Any) -> dict[str, Any]:
    return {"id": "t1", "event_time": AT, "name": "chat", "tags": ["a"], **overrides}


def observation(**overrides: Any) -> dict[str, Any]:
    return {
        "id": "o1",
        "trace_id": "t1",
        "event_time": AT,
        "type": "GENERATION",
        "input": {"messages": [{"role": "user", "content": "hi"}]},
        "metadata": {"k": [1, 2]},
        "usage_details": {"input": 3},
        "cost_details": {"total": 0.5},
        "experiment": {"id": "e1", "item_metadata": {"x": 1}},
        **overrides,
    }


def score(**overrides: Any) -> dict[str, Any]:
    return {"id": "s1", "event_time": AT, "name": "quality", "value": 1.0, "trace_id": "t1",
            **overrides}  # fmt: skip


def by_contract(raw: bytes) -> dict[str, list[tuple[str, int, dict[str, Any]]]]:
    """What the records mean by the contract: ids, event times and the fields they set."""
    batch = TraceBatch.model_validate_json(raw)
    found = {}
    for kind in KINDS:
        records: list[TraceRecord | ObservationRecord | ScoreRecord] = getattr(batch, kind)
        found[kind] = [
            (
                r.id,
                int(r.event_time.timestamp() * 1_000_000),
                r.model_dump(mode="json", exclude_none=True, exclude={"id", "event_time"}),
            )
            for r in records
        ]
    return found


def same_as_contract(raw: bytes) -> None:
    try:
        expected = by_contract(raw)
    except ValidationError:
        with pytest.raises(Permanent, match="not a trace batch"):
            decode_trace_batch(raw)
        return
    got = decode_trace_batch(raw)
    assert (got.project_id, got.project) == ("p-1", "acme/llm")
    for kind in KINDS:
        assert [r[:2] for r in got.records[kind]] == [r[:2] for r in expected[kind]]
        for (_, _, fields), (_, _, meant) in zip(got.records[kind], expected[kind], strict=True):
            # what was sent, as sent; the contract's defaults are not fields the client set
            assert {k: v for k, v in meant.items() if k in fields} == fields


def test_a_batch_of_every_kind_decodes_fast_to_what_the_contract_means(monkeypatch):
    monkeypatch.setattr(traces_wire, "_by_contract", None)  # the fast path alone
    raw = body(traces=[trace()], observations=[observation()], scores=[score()])
    same_as_contract(raw)
    got = decode_trace_batch(raw)
    assert got.records["observations"][0][2]["input"] == observation()["input"]
    assert got.has_observations


def test_what_the_contract_accepts_in_lax_mode_is_decoded_by_it():
    raw = body(
        traces=[trace(event_time=1_764_583_200)], observations=[observation(prompt_version="3")]
    )
    same_as_contract(raw)
    assert decode_trace_batch(raw).records["traces"][0][1] == 1_764_583_200 * 1_000_000


@pytest.mark.parametrize(
    ("lists", "reason"),
    [
        ({"traces": [trace(id="")]}, "traces.0.id"),
        ({"traces": [trace(surprise=1)]}, "traces.0.surprise"),
        ({"observations": [observation(type="NOPE")]}, "observations.0.type"),
        ({"observations": [observation(trace_id=None)]}, "observations.0.trace_id"),
        ({"scores": [score(trace_id=None)]}, "a score needs a traceId"),
        ({"scores": [score(value=None)]}, "a score needs a value"),
    ],
)
def test_a_bad_record_refuses_the_batch_naming_the_field(lists, reason):
    raw = body(**lists)
    same_as_contract(raw)
    with pytest.raises(Permanent, match=reason):
        decode_trace_batch(raw)


def test_an_infinite_number_is_refused():
    raw = body(observations=[observation(cost_details={"total": 1}), observation(id="o2")])
    raw = raw.replace(b'"total": 1}', b'"total": 1e999}')
    with pytest.raises(Permanent, match=r"observations\.0\.cost_details\.total"):
        decode_trace_batch(raw)
    with pytest.raises(Permanent, match=r"scores\.0\.value"):
        decode_trace_batch(body(scores=[score()]).replace(b'"value": 1.0', b'"value": -1e999'))


def test_a_batch_that_is_not_json_is_refused():
    with pytest.raises(Permanent, match="not a trace batch"):
        decode_trace_batch(b"{nope")


_text = st.text(max_size=8)
_values = st.none() | st.booleans() | st.integers(-(2**70), 2**70) | _text | st.floats()


@settings(max_examples=200, deadline=None)
@given(
    name=_values,
    tags=st.lists(_text, max_size=3) | _values,
    usage=st.dictionaries(_text, _values, max_size=2),
    level=st.sampled_from(["DEBUG", "ERROR", "nope", None]),
    value=_values,
)
def test_any_record_means_the_same_to_both_decoders(name, tags, usage, level, value):
    raw = body(
        traces=[trace(name=name, tags=tags)],
        observations=[observation(usage_details=usage, level=level)],
        scores=[score(value=value)],
    )
    same_as_contract(raw)
