"""The ``/v3/scores`` answer: a value typed by the score's data type, and field groups.

Every score carries its core fields; ``fields`` adds ``details`` (comment, configId, metadata),
``subject`` (what the score is about) and ``annotation`` (authorUserId, queueId). The value is
a number for NUMERIC, a boolean for BOOLEAN and the label or text otherwise.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import Field

from axonal_api.public_bodies import Camel, CursorMeta
from axonal_events.trace_reads import ScoreView
from axonal_events.traces import ScoreDataType, ScoreSource

__all__ = [
    "SCORE_GROUPS",
    "LangfuseScoreV3",
    "ScoreSubject",
    "ScoresV3",
    "ScoresV3Meta",
    "UnknownGroup",
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


class UnknownGroup(ValueError):
    """``fields`` names a group that does not exist."""


def score_groups(fields: str | None) -> tuple[str, ...]:
    """The groups ``fields`` names, ``core`` first; :class:`UnknownGroup` for another name."""
    named = {name.strip() for name in (fields or "").split(",") if name.strip()}
    if unknown := sorted(named - set(SCORE_GROUPS)):
        raise UnknownGroup(
            f"unknown field group {', '.join(unknown)}; known: {', '.join(SCORE_GROUPS)}"
        )
    return tuple(group for group in SCORE_GROUPS if group == "core" or group in named)


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
