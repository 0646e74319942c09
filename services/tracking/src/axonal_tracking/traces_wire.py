"""Trace batches off the bus, decoded fast.

The contract is :class:`axonal_events.traces.TraceBatch`. What merges is each record's fields
as the JSON values they arrived as, so a batch is decoded twice with msgspec: once into
structs that mirror the contract (same names, bounds and rules) to check it, once into plain
JSON values. Both are several times cheaper than the contract's pydantic validation, which is
used only when msgspec refuses a batch: it then either names the first bad field or, for input
the contract accepts in its lax mode (a time as a number), decodes it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime
from typing import Annotated, Any

import msgspec
from pydantic import ValidationError

from axonal_bus.errors import Permanent
from axonal_events.traces import (
    MAX_RECORDS_PER_BATCH,
    ObservationLevel,
    ObservationType,
    ScoreDataType,
    ScoreSource,
    TraceBatch,
)
from axonal_traces.values import error_reason

__all__ = ["KINDS", "ReceivedBatch", "Update", "decode_trace_batch"]

KINDS = ("traces", "observations", "scores")
#: One record: its id, its event time (epoch microseconds) and the fields it set.
Update = tuple[str, int, dict[str, Any]]

_Id = Annotated[str, msgspec.Meta(min_length=1, max_length=256)]
_OptionalMap = dict[str, Any] | None


class _Trace(msgspec.Struct, forbid_unknown_fields=True):
    id: _Id
    event_time: datetime
    timestamp: datetime | None = None
    name: str | None = None
    user_id: str | None = None
    session_id: str | None = None
    input: Any = None
    output: Any = None
    metadata: _OptionalMap = None
    tags: list[str] | None = None
    public: bool | None = None
    release: str | None = None
    version: str | None = None
    environment: str | None = None
    run_uuid: str | None = None


class _Experiment(msgspec.Struct, forbid_unknown_fields=True):
    id: _Id
    name: str | None = None
    description: str | None = None
    metadata: Any = None
    dataset_id: str | None = None
    item_id: str | None = None
    item_version: str | None = None
    item_metadata: Any = None
    item_root_observation_id: str | None = None
    item_expected_output: Any = None


class _Observation(msgspec.Struct, forbid_unknown_fields=True):
    id: _Id
    trace_id: _Id
    event_time: datetime
    type: ObservationType = ObservationType.SPAN
    parent_observation_id: str | None = None
    name: str | None = None
    start_time: datetime | None = None
    end_time: datetime | None = None
    completion_start_time: datetime | None = None
    input: Any = None
    output: Any = None
    metadata: _OptionalMap = None
    level: ObservationLevel | None = None
    status_message: str | None = None
    version: str | None = None
    release: str | None = None
    environment: str | None = None
    model: str | None = None
    model_parameters: _OptionalMap = None
    usage_details: dict[str, int] | None = None
    cost_details: dict[str, float] | None = None
    prompt_name: str | None = None
    prompt_version: int | None = None
    experiment: _Experiment | None = None

    def __post_init__(self) -> None:
        if self.cost_details and not all(map(math.isfinite, self.cost_details.values())):
            raise ValueError("cost_details must be finite")


class _Score(msgspec.Struct, forbid_unknown_fields=True):
    id: _Id
    event_time: datetime
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]
    data_type: ScoreDataType = ScoreDataType.NUMERIC
    value: float | None = None
    string_value: str | None = None
    source: ScoreSource = ScoreSource.API
    trace_id: str | None = None
    observation_id: str | None = None
    session_id: str | None = None
    dataset_run_id: str | None = None
    comment: str | None = None
    metadata: _OptionalMap = None
    config_id: str | None = None
    queue_id: str | None = None
    environment: str = "default"
    timestamp: datetime | None = None

    def __post_init__(self) -> None:
        if not (self.trace_id or self.session_id or self.dataset_run_id):
            raise ValueError("a score needs a traceId, a sessionId or a datasetRunId")
        if (self.value is None and self.string_value is None) or (
            self.value is not None and not math.isfinite(self.value)
        ):
            raise ValueError("a score needs a finite value")


class _Batch(msgspec.Struct, forbid_unknown_fields=True):
    project_id: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    project: str
    received_at: datetime
    traces: Annotated[list[_Trace], msgspec.Meta(max_length=MAX_RECORDS_PER_BATCH)] = []
    observations: Annotated[list[_Observation], msgspec.Meta(max_length=MAX_RECORDS_PER_BATCH)] = []
    scores: Annotated[list[_Score], msgspec.Meta(max_length=MAX_RECORDS_PER_BATCH)] = []


_checked = msgspec.json.Decoder(_Batch)
_plain = msgspec.json.Decoder(dict[str, Any])
_RECORD_KEYS = frozenset({"id", "event_time"})  # what a record is, not what it sets


@dataclass(frozen=True, slots=True)
class ReceivedBatch:
    """A valid batch: its project and, per kind, its records as :data:`Update` s."""

    project_id: str
    project: str
    records: dict[str, list[Update]]

    @property
    def has_observations(self) -> bool:
        return bool(self.records["observations"])


def _micros(at: datetime) -> int:
    return int(at.timestamp() * 1_000_000)


def _updates(checked: list[Any], sent: list[dict[str, Any]]) -> list[Update]:
    return [
        (
            record.id,
            _micros(record.event_time),
            {k: v for k, v in fields.items() if v is not None and k not in _RECORD_KEYS},
        )
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
        records[kind] = _updates(checked, sent)
    return ReceivedBatch(batch.project_id, batch.project, records)


def decode_trace_batch(raw: bytes) -> ReceivedBatch:
    """A valid batch; :class:`Permanent` naming the first bad field otherwise."""
    try:
        batch = _checked.decode(raw)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return _by_contract(raw)
    sent = _plain.decode(raw)
    records = {kind: _updates(getattr(batch, kind), sent.get(kind) or []) for kind in KINDS}
    return ReceivedBatch(batch.project_id, batch.project, records)
