"""Answers of the platform api (``/api/v1``) that are not bus payloads.

The api returns them and the CLI reads them, so both name the same models. Everything else
the api answers is a bus payload of this package (``RunInfo``, ``SeriesList``...).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.catalog import RunStatus
from axonal_events.numbers import NON_FINITE_AS_STRINGS, MetricValue

__all__ = [
    "ComparedRun",
    "EventAccepted",
    "EventsAccepted",
    "MetricsAccepted",
    "RunComparison",
]


class MetricsAccepted(Payload):
    run_uuid: str
    points: int = Field(description="Points in the batch (stored once per run, name and step).")


class ComparedRun(Payload):
    model_config = NON_FINITE_AS_STRINGS

    uuid: str
    name: str | None
    status: RunStatus
    created_at: datetime
    finished_at: datetime | None
    inputs: dict[str, Any]
    outputs: dict[str, Any]
    metrics: dict[str, MetricValue] = Field(description="The value at each metric's highest step.")


class RunComparison(Payload):
    """``GET .../compare``: runs side by side and the rows whose values differ."""

    runs: list[ComparedRun]
    inputs: list[str] = Field(description="Every input name of these runs, sorted.")
    outputs: list[str]
    metrics: list[str]
    differing: list[str] = Field(
        description="`inputs.<name>`, `outputs.<name>`, `metrics.<name>` whose values differ."
    )


class EventAccepted(Payload):
    id: str
    source: str
    type: str
    subject: str


class EventsAccepted(Payload):
    accepted: list[EventAccepted]
