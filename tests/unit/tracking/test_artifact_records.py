"""Artifact records off the bus: valid ones decode, anything else is permanent (DLQ)."""

import json

import pytest

from axonal._artifacts import KINDS
from axonal_bus.errors import Permanent
from axonal_events.artifacts import MAX_SUMMARY_BYTES, ArtifactKind
from axonal_tracking.artifacts.handlers import decode_record

RECORD = {
    "run_uuid": "0123456789abcdef0123456789abcdef",
    "project": "acme/demo",
    "name": "eval/roc",
    "kind": "curve",
    "path": "acme/demo/0123456789abcdef0123456789abcdef/curve/eval/roc.json",
    "size": 10,
    "sha256": "a" * 64,
    "step": 3,
    "summary": {"points": 2},
    "created_at": "2026-12-01T10:00:00Z",
}


def test_the_sdk_knows_every_kind():
    assert {kind.value for kind in ArtifactKind} == KINDS


def test_a_record_decodes():
    record = decode_record(json.dumps(RECORD).encode())
    assert (record.kind, record.step, record.is_input) == (ArtifactKind.CURVE, 3, False)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        ({"kind": "spreadsheet"}, "kind"),
        ({"sha256": "xyz"}, "sha256"),
        ({"name": "../etc"}, "name"),
        ({"size": -1}, "size"),
        ({"summary": {"x": "y" * MAX_SUMMARY_BYTES}}, "summary"),
        ({"extra": 1}, "extra"),
    ],
)
def test_malformed_records_are_permanent(change, where):
    with pytest.raises(Permanent, match=f"not an artifact record: {where}"):
        decode_record(json.dumps({**RECORD, **change}).encode())


def test_garbage_is_permanent():
    with pytest.raises(Permanent, match="not an artifact record"):
        decode_record(b"\xff not json")
