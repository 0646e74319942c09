"""Langfuse batch ingestion events (``POST /api/public/ingestion``) -> records.

Each event is converted on its own: an invalid one becomes an :class:`EventError` (answered in
the 207 response) and never stops the others. ``sdk-log`` events are accepted and dropped.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from axonal_events.score_configs import ScoreConfig
from axonal_events.traces import ObservationRecord, ObservationType, ScoreRecord, TraceRecord
from axonal_traces import usage
from axonal_traces.scores import InvalidRecord, score_record
from axonal_traces.values import as_int, error_reason, parse_time

__all__ = ["EventError", "LegacyRecords", "convert_batch", "score_config_ids"]

_TRACE_FIELDS = {
    "name": "name",
    "userId": "user_id",
    "sessionId": "session_id",
    "input": "input",
    "output": "output",
    "metadata": "metadata",
    "tags": "tags",
    "public": "public",
    "release": "release",
    "version": "version",
    "environment": "environment",
}
_OBSERVATION_FIELDS = {
    "traceId": "trace_id",
    "parentObservationId": "parent_observation_id",
    "name": "name",
    "input": "input",
    "output": "output",
    "metadata": "metadata",
    "level": "level",
    "statusMessage": "status_message",
    "version": "version",
    "environment": "environment",
    "model": "model",
    "modelParameters": "model_parameters",
    "promptName": "prompt_name",
}
_TIMES = {
    "startTime": "start_time",
    "endTime": "end_time",
    "completionStartTime": "completion_start_time",
}
_TYPED = {f"{t.value.lower()}-create": t for t in ObservationType} | {
    "span-update": ObservationType.SPAN,
    "generation-update": ObservationType.GENERATION,
}


@dataclass(frozen=True)
class EventError:
    """One refused event: its id, an HTTP-like status and why."""

    id: str
    status: int
    message: str
    error: str


@dataclass
class LegacyRecords:
    traces: list[TraceRecord] = field(default_factory=list)
    observations: list[ObservationRecord] = field(default_factory=list)
    scores: list[ScoreRecord] = field(default_factory=list)
    accepted: list[str] = field(default_factory=list)
    errors: list[EventError] = field(default_factory=list)


def _metadata(value: Any) -> dict[str, Any] | None:
    if value is None or isinstance(value, dict):
        return value
    return {"metadata": value}


def _trace(body: Mapping[str, Any], event_time: datetime) -> TraceRecord:
    fields = {name: body[key] for key, name in _TRACE_FIELDS.items() if body.get(key) is not None}
    if "metadata" in fields:
        fields["metadata"] = _metadata(fields["metadata"])
    return TraceRecord(
        id=str(body.get("id") or uuid.uuid4()),
        event_time=event_time,
        timestamp=parse_time(body.get("timestamp")),
        **fields,
    )


def _usage_and_cost(body: Mapping[str, Any]) -> tuple[dict[str, int] | None, Any]:
    details = body.get("usageDetails")
    legacy = body.get("usage")
    cost = body.get("costDetails")
    found: dict[str, int] | None = None
    if isinstance(details, Mapping):
        found = usage.from_client(details)
    elif isinstance(legacy, Mapping):
        found = usage.from_client(legacy)
        if cost is None:
            legacy_cost = {
                name: legacy[key]
                for key, name in (
                    ("inputCost", "input"),
                    ("outputCost", "output"),
                    ("totalCost", "total"),
                )
                if isinstance(legacy.get(key), int | float)
            }
            cost = legacy_cost or None
    return found or None, cost


def _observation(
    kind: ObservationType | None, body: Mapping[str, Any], event_time: datetime, *, update: bool
) -> ObservationRecord:
    if update and not body.get("id"):
        raise InvalidRecord("body.id: an update needs the id of what it updates")
    if not body.get("traceId"):
        raise InvalidRecord("body.traceId: required")
    if kind is None:
        raw = str(body.get("type") or "").upper()
        if raw not in ObservationType.__members__:
            raise InvalidRecord(f"body.type: not an observation type: {body.get('type')!r}")
        kind = ObservationType[raw]
    fields = {
        name: body[key] for key, name in _OBSERVATION_FIELDS.items() if body.get(key) is not None
    }
    if "metadata" in fields:
        fields["metadata"] = _metadata(fields["metadata"])
    for key, name in _TIMES.items():
        if body.get(key) is not None:
            fields[name] = parse_time(body[key])
    if kind is ObservationType.EVENT and "start_time" in fields:
        fields.setdefault("end_time", fields["start_time"])
    if body.get("promptVersion") is not None:
        fields["prompt_version"] = as_int(body["promptVersion"])
    usage_details, cost = _usage_and_cost(body)
    return ObservationRecord(
        id=str(body.get("id") or uuid.uuid4()),
        type=kind,
        event_time=event_time,
        usage_details=usage_details,
        cost_details=cost,
        **fields,
    )


def _event(
    event: Any,
    received_at: datetime,
    records: LegacyRecords,
    configs: Mapping[str, ScoreConfig] | None,
) -> None:
    """Convert one event into ``records``; raises :class:`InvalidRecord`."""
    if not isinstance(event, Mapping):
        raise InvalidRecord("an event must be a JSON object")
    kind = event.get("type")
    body = event.get("body")
    if not isinstance(kind, str):
        raise InvalidRecord("type: required")
    if not isinstance(body, Mapping):
        raise InvalidRecord("body: must be an object")
    event_time = parse_time(event.get("timestamp")) or received_at
    if kind == "sdk-log":
        return
    if kind == "trace-create":
        records.traces.append(_trace(body, event_time))
    elif kind == "score-create":
        records.scores.append(score_record(body, event_time=event_time, configs=configs))
    elif kind in _TYPED:
        update = kind.endswith("-update")
        records.observations.append(_observation(_TYPED[kind], body, event_time, update=update))
    elif kind in ("observation-create", "observation-update"):
        update = kind == "observation-update"
        records.observations.append(_observation(None, body, event_time, update=update))
    else:
        raise InvalidRecord(f"type: unsupported event type {kind!r}")


def score_config_ids(batch: list[Any]) -> set[str]:
    """The ``configId`` of every score of ``batch``: the configs to read before converting it."""
    return {
        str(event["body"]["configId"])
        for event in batch
        if isinstance(event, Mapping)
        and event.get("type") == "score-create"
        and isinstance(event.get("body"), Mapping)
        and event["body"].get("configId") is not None
    }


def convert_batch(
    batch: list[Any],
    *,
    received_at: datetime,
    score_configs: Mapping[str, ScoreConfig] | None = None,
) -> LegacyRecords:
    """Records of the valid events of ``batch`` and one :class:`EventError` per invalid one.

    With ``score_configs`` (by id), scores that name a config are checked against it
    (:func:`score_config_ids` lists the ids a batch names)."""
    records = LegacyRecords()
    for index, event in enumerate(batch):
        event_id = event.get("id") if isinstance(event, Mapping) else None
        label = str(event_id) if event_id else f"#{index}"
        try:
            if not isinstance(event_id, str) or not event_id:
                raise InvalidRecord("id: every event needs a string id")
            _event(event, received_at, records, score_configs)
        except (TypeError, ValueError) as exc:
            reason = error_reason(exc) if isinstance(exc, ValueError) else str(exc)
            status = exc.status if isinstance(exc, InvalidRecord) else 400
            message = "Resource not found" if status == 404 else "Invalid request data"
            records.errors.append(EventError(label, status, message, reason))
        else:
            records.accepted.append(label)
    return records
