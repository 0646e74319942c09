"""The wire structs mirror the trace contract and encode only what a record sets."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest

from axonal_events.traces import (
    ExperimentLink,
    ObservationRecord,
    ObservationType,
    ScoreRecord,
    TraceBatch,
    TraceRecord,
)
from axonal_traces import wire


@pytest.mark.parametrize(
    ("mirror", "contract"),
    [
        (wire.BatchWire, TraceBatch),
        (wire.TraceWire, TraceRecord),
        (wire.ObservationWire, ObservationRecord),
        (wire.ScoreWire, ScoreRecord),
        (wire.ExperimentWire, ExperimentLink),
    ],
)
def test_the_fast_decoder_mirrors_every_field_of_the_contract(mirror, contract):
    # a field missing here would send every batch that sets it down the slow path
    assert set(mirror.__struct_fields__) == set(contract.model_fields)


def test_a_record_encodes_as_the_contract_dumps_it():
    at = datetime(2026, 12, 1, 10, 0, 0, 123456, tzinfo=UTC)
    fields = {
        "id": "o1",
        "trace_id": "t1",
        "event_time": at,
        "type": ObservationType.SPAN,
        "input": {"q": [1, 2.5, None]},
        "usage_details": {"input": 3},
        "experiment": {"id": "e1", "item_metadata": {"k": "v"}},
    }
    built = wire.ObservationWire(
        **{**fields, "experiment": wire.ExperimentWire(id="e1", item_metadata={"k": "v"})}
    )
    dumped = ObservationRecord(**fields).model_dump(mode="json", exclude_none=True)
    assert json.loads(wire.encode(built)) == dumped  # "SPAN" too: it was set
