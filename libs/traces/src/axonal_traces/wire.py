"""The :class:`~axonal_events.traces.TraceBatch` contract as msgspec structs.

What the OTLP converter builds and the tracking service decodes: the same names, bounds and
rules as the pydantic contract, at a fraction of its cost (building and encoding a record,
or decoding and checking one, takes a few microseconds). A field the contract gives a
default other than ``None`` is ``None`` here when unset, so that encoding leaves out exactly
the fields a client did not set; readers apply the contract's defaults. Building a struct
checks nothing but its own rules: :func:`check` a batch's JSON before it leaves.
"""

from __future__ import annotations

import math
from datetime import datetime
from typing import Annotated, Any

import msgspec

from axonal_events.traces import (
    MAX_RECORDS_PER_BATCH,
    ObservationLevel,
    ObservationType,
    ScoreDataType,
    ScoreSource,
)

__all__ = [
    "BatchWire",
    "ExperimentWire",
    "ObservationWire",
    "ScoreWire",
    "TraceWire",
    "check",
    "encode",
]


class _Record(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


_Id = Annotated[str, msgspec.Meta(min_length=1, max_length=256)]
_OptionalMap = dict[str, Any] | None
_AT_MOST = msgspec.Meta(max_length=MAX_RECORDS_PER_BATCH)


class TraceWire(_Record):
    """A :class:`~axonal_events.traces.TraceRecord`."""

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


class ExperimentWire(_Record):
    """An :class:`~axonal_events.traces.ExperimentLink`."""

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


class ObservationWire(_Record):
    """An :class:`~axonal_events.traces.ObservationRecord`."""

    id: _Id
    trace_id: _Id
    event_time: datetime
    type: ObservationType | None = None
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
    experiment: ExperimentWire | None = None

    def __post_init__(self) -> None:
        if self.cost_details and not all(map(math.isfinite, self.cost_details.values())):
            raise ValueError("cost_details must be finite")


class ScoreWire(_Record):
    """A :class:`~axonal_events.traces.ScoreRecord`."""

    id: _Id
    event_time: datetime
    name: Annotated[str, msgspec.Meta(min_length=1, max_length=1000)]
    data_type: ScoreDataType | None = None
    value: float | None = None
    string_value: str | None = None
    source: ScoreSource | None = None
    trace_id: str | None = None
    observation_id: str | None = None
    session_id: str | None = None
    dataset_run_id: str | None = None
    comment: str | None = None
    metadata: _OptionalMap = None
    config_id: str | None = None
    queue_id: str | None = None
    environment: str | None = None
    timestamp: datetime | None = None

    def __post_init__(self) -> None:
        if not (self.trace_id or self.session_id or self.dataset_run_id):
            raise ValueError("a score needs a traceId, a sessionId or a datasetRunId")
        if (self.value is None and self.string_value is None) or (
            self.value is not None and not math.isfinite(self.value)
        ):
            raise ValueError("a score needs a finite value")


class BatchWire(_Record):
    """A :class:`~axonal_events.traces.TraceBatch`."""

    project_id: Annotated[str, msgspec.Meta(pattern=r"^[A-Za-z0-9_-]{1,64}$")]
    project: str
    received_at: datetime
    traces: Annotated[list[TraceWire], _AT_MOST] = []
    observations: Annotated[list[ObservationWire], _AT_MOST] = []
    scores: Annotated[list[ScoreWire], _AT_MOST] = []


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(BatchWire)


def encode(record: msgspec.Struct) -> bytes:
    """A record's JSON, without the fields it does not set."""
    return _encoder.encode(record)


def check(raw: bytes) -> BatchWire:
    """The batch in ``raw``; :class:`msgspec.ValidationError` (or ``DecodeError``) naming the
    first field the contract refuses."""
    return _decoder.decode(raw)
