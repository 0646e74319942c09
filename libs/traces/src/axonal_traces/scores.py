"""Score objects as clients send them (``POST /scores``, ``score-create``) -> score records."""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from axonal_events.score_configs import ScoreConfig, ScoreRefused, check_score
from axonal_events.traces import ScoreDataType, ScoreRecord, ScoreSource
from axonal_traces.values import error_reason, parse_time

__all__ = ["InvalidRecord", "score_record"]

_FIELDS = {
    "id": "id",
    "name": "name",
    "traceId": "trace_id",
    "observationId": "observation_id",
    "sessionId": "session_id",
    "datasetRunId": "dataset_run_id",
    "comment": "comment",
    "metadata": "metadata",
    "configId": "config_id",
    "queueId": "queue_id",
    "environment": "environment",
}


class InvalidRecord(ValueError):
    """A client's object cannot become a record; the message says why, ``status`` how to
    answer (404: the score's config does not exist)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


def _value(data_type: ScoreDataType | None, value: Any) -> tuple[ScoreDataType, Any, Any]:
    """``(data type, numeric value, string value)``, checked against the type."""
    if value is None:
        raise InvalidRecord("value: required")
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if isinstance(value, bool):
        value, number = int(value), True
    if data_type is None:
        data_type = ScoreDataType.NUMERIC if number else ScoreDataType.CATEGORICAL
    if data_type is ScoreDataType.NUMERIC:
        if not number:
            raise InvalidRecord("value: a NUMERIC score needs a number")
        return data_type, float(value), None
    if data_type is ScoreDataType.BOOLEAN:
        if value not in (0, 1):
            raise InvalidRecord("value: a BOOLEAN score is 0 or 1")
        return data_type, float(value), "True" if value == 1 else "False"
    if not isinstance(value, str):
        raise InvalidRecord(f"value: a {data_type.value} score needs a string")
    if data_type is ScoreDataType.TEXT and not 1 <= len(value) <= 500:
        raise InvalidRecord("value: a TEXT score has 1 to 500 characters")
    return data_type, None, value


def score_record(
    body: Mapping[str, Any],
    *,
    event_time: datetime,
    source: ScoreSource = ScoreSource.API,
    default_id: str | None = None,
    configs: Mapping[str, ScoreConfig] | None = None,
) -> ScoreRecord:
    """The score ``body`` describes (camelCase keys); :class:`InvalidRecord` if it cannot.

    A body without ``id`` gets ``default_id`` (a random one when none is given). With
    ``configs`` (the project's configs by id, those the bodies name), a body with a
    ``configId`` is checked against it and takes its name and data type.
    """
    if not isinstance(body, Mapping):
        raise InvalidRecord("a score must be a JSON object")
    raw_type = body.get("dataType")
    try:
        data_type = ScoreDataType(raw_type) if raw_type is not None else None
        fields = {name: body[key] for key, name in _FIELDS.items() if body.get(key) is not None}
        config_id = body.get("configId")
        if configs is not None and config_id is not None:
            checked = check_score(
                configs.get(str(config_id)), body.get("value"), declared=data_type
            )
            kind, value, string_value = checked.data_type, checked.value, checked.string_value
            fields["name"] = checked.name
        else:
            kind, value, string_value = _value(data_type, body.get("value"))
        timestamp = parse_time(body.get("timestamp"))
        fields.setdefault("id", default_id or uuid.uuid4().hex)
        if body.get("source") is not None:
            source = ScoreSource(body["source"])
        return ScoreRecord(
            **fields,
            event_time=timestamp or event_time,
            timestamp=timestamp or event_time,
            data_type=kind,
            value=value,
            string_value=string_value,
            source=source,
        )
    except ScoreRefused as exc:
        raise InvalidRecord(str(exc), exc.status) from None
    except (TypeError, ValueError) as exc:
        raise InvalidRecord(
            error_reason(exc) if isinstance(exc, ValueError) else str(exc)
        ) from None
