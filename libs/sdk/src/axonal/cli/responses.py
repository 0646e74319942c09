"""The api's own answers, as the CLI reads them (the others are ``axonal_events`` models).

These mirror the bodies the api defines for itself (``axonal_api.models`` and its routes):
the CLI cannot import a service. Unknown fields are ignored, missing ones are an error.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from axonal_events import RunStatus
from axonal_events.traces import PageMeta, TraceView

__all__ = [
    "ActionAccepted",
    "ComparedRun",
    "Comparison",
    "EventAccepted",
    "EventsAccepted",
    "MetricsAccepted",
    "RunCreated",
    "TraceRow",
    "TraceRows",
]


class _Answer(BaseModel):
    model_config = ConfigDict(frozen=True)


class RunCreated(_Answer):
    """``POST .../runs``: the submit is accepted; the scheduler creates the run."""

    uuid: str
    owner: str
    project: str
    status: str = "submitted"


class ActionAccepted(_Answer):
    """``POST .../runs/{uuid}/{verb}`` and ``DELETE .../runs/{uuid}``."""

    uuid: str
    action: str
    new_uuid: str | None = Field(default=None, description="The copy a restart creates.")


class MetricsAccepted(_Answer):
    run_uuid: str
    points: int


class ComparedRun(_Answer):
    uuid: str
    name: str | None
    status: RunStatus
    created_at: datetime
    finished_at: datetime | None
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    metrics: dict[str, float]


class Comparison(_Answer):
    """``GET .../compare``: runs side by side and the rows whose values differ."""

    runs: list[ComparedRun]
    inputs: list[str]
    outputs: list[str]
    metrics: list[str]
    differing: list[str]


class EventAccepted(_Answer):
    id: str
    source: str
    type: str
    subject: str


class EventsAccepted(_Answer):
    accepted: list[EventAccepted]


class TraceRow(TraceView):
    """A listed trace, with the tokens of all its observations."""

    total_tokens: int = 0


class TraceRows(_Answer):
    data: list[TraceRow]
    meta: PageMeta
