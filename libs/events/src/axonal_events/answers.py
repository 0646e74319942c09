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
from axonal_events.trace_reads import PageMeta, SessionView, TraceView

__all__ = [
    "ComparedRun",
    "EventAccepted",
    "EventsAccepted",
    "MetricsAccepted",
    "RunComparison",
    "SessionRow",
    "SessionRows",
    "TraceRow",
    "TraceRows",
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


class TraceRow(TraceView):
    """A listed trace, with the tokens of all its observations."""

    input_tokens: int = 0
    output_tokens: int = 0
    total_tokens: int = 0


class TraceRows(Payload):
    data: list[TraceRow]
    meta: PageMeta


class SessionRow(SessionView):
    """A listed session, with the totals of its traces."""

    trace_count: int = 0
    first_trace_at: datetime | None = None
    last_trace_at: datetime | None = None
    total_cost: float = 0.0
    user_ids: list[str] = Field(
        default_factory=list, description="Of its traces, first seen first."
    )


class SessionRows(Payload):
    data: list[SessionRow]
    meta: PageMeta
