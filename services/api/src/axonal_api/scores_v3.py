"""The ``/v3/scores`` answer: a value typed by the score's data type, and field groups.

Every score carries its core fields; ``fields`` adds ``details`` (comment, configId, metadata),
``subject`` (what the score is about) and ``annotation`` (authorUserId, queueId). The value is
a number for NUMERIC, a boolean for BOOLEAN and the label or text otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal, TypeVar

from pydantic import Field

from axonal_api.public_bodies import Camel, CursorMeta
from axonal_events.trace_reads import ScoreView
from axonal_events.traces import ScoreDataType, ScoreSource

__all__ = [
    "SCORE_GROUPS",
    "InvalidScoreQuery",
    "LangfuseScoreV3",
    "ScoreSubject",
    "ScoresV3",
    "ScoresV3Meta",
    "score_filters",
    "score_groups",
    "subject_of",
]

SCORE_GROUPS: dict[str, tuple[str, ...]] = {
    "core": (),
    "details": ("comment", "configId", "metadata"),
    "subject": ("subject",),
    "annotation": ("authorUserId", "queueId"),
}

_CORE = {
    "id",
    "project_id",
    "name",
    "data_type",
    "source",
    "timestamp",
    "environment",
    "created_at",
    "updated_at",
}


class InvalidScoreQuery(ValueError):
    """A query Langfuse refuses: an unknown group or value, or filters that cannot combine."""


def _csv(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


def score_groups(fields: str | None) -> tuple[str, ...]:
    """The groups ``fields`` names, ``core`` first; :class:`InvalidScoreQuery` for another."""
    named = set(_csv(fields))
    if unknown := sorted(named - set(SCORE_GROUPS)):
        raise InvalidScoreQuery(
            f"unknown field group {', '.join(unknown)}; known: {', '.join(SCORE_GROUPS)}"
        )
    return tuple(group for group in SCORE_GROUPS if group == "core" or group in named)


#: Comma-separated filters, by their query name: the field of ``ListScores`` each fills.
_LISTS = {
    "id": "id",
    "name": "name",
    "environment": "environment",
    "configId": "config_id",
    "queueId": "queue_id",
    "authorUserId": "author_user_id",
    "traceId": "trace_id",
    "sessionId": "session_id",
    "observationId": "observation_id",
    "experimentId": "dataset_run_id",
}
_EXCLUSIVE = (
    ("traceId", "sessionId"),
    ("traceId", "experimentId"),
    ("sessionId", "observationId"),
    ("sessionId", "experimentId"),
    ("observationId", "experimentId"),
)
_BOOLEANS = {"true": 1.0, "false": 0.0}


E = TypeVar("E", ScoreSource, ScoreDataType)


def _enum_values(name: str, enum: type[E], texts: list[str]) -> list[E]:
    try:
        return [enum(text.upper()) for text in texts]
    except ValueError:
        known = ", ".join(member.value for member in enum)
        raise InvalidScoreQuery(f"{name}: each of {known}") from None


def _value_filter(data_types: list[ScoreDataType], texts: list[str]) -> dict[str, Any]:
    if len(data_types) != 1 or data_types[0] is ScoreDataType.TEXT:
        raise InvalidScoreQuery("value needs one dataType: NUMERIC, BOOLEAN or CATEGORICAL")
    if data_types[0] is ScoreDataType.CATEGORICAL:
        return {"labels": texts}
    if data_types[0] is ScoreDataType.BOOLEAN:
        if not set(texts) <= set(_BOOLEANS):
            raise InvalidScoreQuery("value: a BOOLEAN score is true or false")
        return {"values": [_BOOLEANS[text] for text in texts]}
    try:
        numbers = [float(text) for text in texts]
    except ValueError:
        raise InvalidScoreQuery("value: a NUMERIC score's value is a number") from None
    if not all(math.isfinite(number) for number in numbers):
        raise InvalidScoreQuery("value: a NUMERIC score's value is finite")
    return {"values": numbers}


def score_filters(
    texts: Mapping[str, str | None], value_min: float | None, value_max: float | None
) -> dict[str, Any]:
    """The ``ListScores`` fields of ``/v3/scores`` filters (``texts`` by their query names,
    each comma-separated); :class:`InvalidScoreQuery` for what Langfuse refuses."""
    given = {name: values for name, text in texts.items() if (values := _csv(text))}
    for one, other in _EXCLUSIVE:
        if one in given and other in given:
            raise InvalidScoreQuery(f"{one} and {other} cannot be combined")
    if "observationId" in given and "traceId" not in given:
        raise InvalidScoreQuery("observationId needs traceId")
    filters: dict[str, Any] = {_LISTS[k]: v for k, v in given.items() if k in _LISTS}
    filters["source"] = _enum_values("source", ScoreSource, given.get("source", []))
    data_types = _enum_values("dataType", ScoreDataType, given.get("dataType", []))
    if (value_min, value_max) != (None, None) and data_types != [ScoreDataType.NUMERIC]:
        raise InvalidScoreQuery("valueMin and valueMax need dataType=NUMERIC")
    if "value" in given:
        filters |= _value_filter(data_types, given["value"])
    return filters | {"data_type": data_types, "value_min": value_min, "value_max": value_max}


class ScoreSubject(Camel):
    """What a score is about; ``traceId`` only for an observation's score."""

    kind: Literal["trace", "observation", "session", "experiment"]
    id: str
    trace_id: str | None = None


def subject_of(view: ScoreView) -> ScoreSubject:
    """The most specific target: an experiment, an observation, a session, else the trace."""
    if view.dataset_run_id:
        return ScoreSubject(kind="experiment", id=view.dataset_run_id)
    if view.observation_id:
        if view.trace_id:
            return ScoreSubject(kind="observation", id=view.observation_id, trace_id=view.trace_id)
        return ScoreSubject(kind="observation", id=view.observation_id)
    if view.session_id:
        return ScoreSubject(kind="session", id=view.session_id)
    return ScoreSubject(kind="trace", id=view.trace_id or "")


def _value(view: ScoreView) -> float | bool | str:
    if view.data_type is ScoreDataType.NUMERIC:
        return view.value if view.value is not None else 0.0
    if view.data_type is ScoreDataType.BOOLEAN:
        return view.value == 1
    return view.string_value or ""


class LangfuseScoreV3(Camel):
    """A score as ``/v3/scores`` answers it; only the asked groups are sent."""

    id: str
    project_id: str
    name: str
    data_type: ScoreDataType
    value: bool | float | str = Field(description="Number, boolean, or label/text by dataType.")
    source: ScoreSource
    timestamp: datetime
    environment: str
    created_at: datetime
    updated_at: datetime
    comment: str | None = None
    config_id: str | None = None
    metadata: dict[str, Any] | None = None
    author_user_id: str | None = None
    queue_id: str | None = None
    subject: ScoreSubject | None = None

    @classmethod
    def of(cls, view: ScoreView, groups: tuple[str, ...]) -> LangfuseScoreV3:
        """The core fields and those of ``groups`` set; the others left unset."""
        fields: dict[str, Any] = view.model_dump(include=_CORE)
        fields["value"] = _value(view)
        if "details" in groups:
            fields |= {"comment": view.comment, "config_id": view.config_id}
            fields["metadata"] = view.metadata
        if "annotation" in groups:
            fields |= {"author_user_id": None, "queue_id": view.queue_id}
        if "subject" in groups:
            fields["subject"] = subject_of(view)
        return cls(**fields)


class ScoresV3Meta(CursorMeta):
    limit: int


class ScoresV3(Camel):
    """One page of scores; ``meta.cursor`` (absent on the last page) asks for the next."""

    data: list[LangfuseScoreV3]
    meta: ScoresV3Meta
