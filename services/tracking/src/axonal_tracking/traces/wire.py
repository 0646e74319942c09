"""Trace batches off the bus, decoded fast.

The contract is :class:`axonal_events.traces.TraceBatch`. What merges is each record's fields
as JSON values: a batch is decoded with msgspec into the structs that mirror the contract
(:mod:`axonal_traces.wire`), which checks it, and each record's set fields are taken from its
struct as JSON values. That is several times cheaper than the contract's pydantic validation,
which is used only when msgspec refuses a batch: it then either names the first bad field or,
for input the contract accepts in its lax mode (a time as a number), decodes it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec
from pydantic import ValidationError

from axonal_bus.errors import Permanent
from axonal_events.traces import ScoreRecord, TraceBatch
from axonal_traces import wire
from axonal_traces.values import error_reason

__all__ = ["KINDS", "ReceivedBatch", "ReceivedRecord", "decode_trace_batch", "scores_batch"]

KINDS = ("traces", "observations", "scores")
#: One record: its id, its event time (epoch microseconds) and the fields it set.
ReceivedRecord = tuple[str, int, dict[str, Any]]

_RECORD_KEYS = frozenset({"id", "event_time"})  # what a record is, not what it sets


@dataclass(frozen=True, slots=True)
class ReceivedBatch:
    """A valid batch: its project and, per kind, its records as :data:`ReceivedRecord` s."""

    project_id: str
    project: str
    records: dict[str, list[ReceivedRecord]]

    @property
    def has_observations(self) -> bool:
        return bool(self.records["observations"])


def _micros(at: datetime) -> int:
    return int(at.timestamp() * 1_000_000)


def _records(checked: list[Any], sent: list[dict[str, Any]]) -> list[ReceivedRecord]:
    """Each record's id, event time and the fields it set (``sent``: its JSON values)."""
    for fields in sent:
        for key in _RECORD_KEYS:
            fields.pop(key, None)
    return [
        (record.id, _micros(record.event_time), fields)
        for record, fields in zip(checked, sent, strict=True)
    ]


def _by_contract(raw: bytes) -> ReceivedBatch:
    """The slow path: the contract's own validation, which explains a refusal."""
    try:
        batch = TraceBatch.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a trace batch: {error_reason(exc)}") from None
    records = {}
    for kind in KINDS:
        checked = getattr(batch, kind)
        sent = [r.model_dump(mode="json", exclude_none=True) for r in checked]
        records[kind] = _records(checked, sent)
    return ReceivedBatch(batch.project_id, batch.project, records)


def decode_trace_batch(raw: bytes) -> ReceivedBatch:
    """A valid batch; :class:`Permanent` naming the first bad field otherwise."""
    try:
        batch = wire.check(raw)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return _by_contract(raw)
    records = {}
    for kind in KINDS:
        checked = getattr(batch, kind)
        records[kind] = _records(checked, msgspec.to_builtins(checked))
    return ReceivedBatch(batch.project_id, batch.project, records)


def scores_batch(project_id: str, project: str, scores: list[ScoreRecord]) -> ReceivedBatch:
    """``scores`` as a batch to merge like an ingested one."""
    sent = [score.model_dump(mode="json", exclude_none=True) for score in scores]
    records = {"traces": [], "observations": [], "scores": _records(scores, sent)}
    return ReceivedBatch(project_id, project, records)
