"""Metric points a run logs, on ``<ns>.ingest.metrics.<run_uuid>``, and their queries.

A batch carries many points (publishing one point per message would cap throughput). The
publisher sets ``Nats-Msg-Id`` = ``<run_uuid>:<writer id>:<batch seq>`` so a retried publish is
stored once; the tracking service keys points by (run, name, step), so a redelivered or
re-sent point never becomes two.
"""

from __future__ import annotations

import math
from datetime import datetime

from pydantic import Field, field_validator

from axonal_events.base import Payload
from axonal_events.catalog.alerts import Comparison

__all__ = [
    "MAX_POINTS_PER_BATCH",
    "METRIC_NAME_PATTERN",
    "AlertCondition",
    "AlertRuleInfo",
    "AlertRuleList",
    "AlertRuleSpec",
    "DeleteAlertRule",
    "LatestMetrics",
    "ListAlertRules",
    "MetricBatch",
    "MetricPoint",
    "MetricSeries",
    "ReadLatest",
    "ReadSeries",
    "SeriesList",
    "SeriesPoint",
]

MAX_POINTS_PER_BATCH = 10_000
#: Names as users write them (``loss``, ``val/accuracy``, ``lr-0``), bounded.
METRIC_NAME_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_./:-]{0,199}$"


class MetricPoint(Payload):
    name: str = Field(pattern=METRIC_NAME_PATTERN)
    step: int = Field(ge=0, le=2**62)
    value: float
    at: datetime

    @field_validator("value")
    @classmethod
    def _finite(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("metric values must be finite (NaN and infinity are not stored)")
        return value


class MetricBatch(Payload):
    run_uuid: str = Field(pattern=r"^[0-9a-f]{32}$")
    points: list[MetricPoint] = Field(min_length=1, max_length=MAX_POINTS_PER_BATCH)


class ReadSeries(Payload):
    """Series of ``names`` (all when empty) for each run, reduced to at most ``points`` each."""

    run_uuids: list[str] = Field(min_length=1, max_length=100)
    names: list[str] = Field(default_factory=list, max_length=100)
    points: int = Field(default=1000, ge=2, le=100_000)


class SeriesPoint(Payload):
    """One bucket of steps: its last step and value, and the min/max value within it."""

    step: int
    value: float
    min: float
    max: float


class MetricSeries(Payload):
    run_uuid: str
    name: str
    total: int = Field(description="Points stored; more than returned when downsampled.")
    points: list[SeriesPoint]


class SeriesList(Payload):
    series: list[MetricSeries]


class ReadLatest(Payload):
    run_uuids: list[str] = Field(min_length=1, max_length=1000)


class LatestMetrics(Payload):
    """``values[run_uuid][name]`` = the value at the highest step."""

    values: dict[str, dict[str, float]]


class AlertCondition(Payload):
    """``metric comparison threshold`` for ``for_points`` consecutive points."""

    metric: str = Field(pattern=METRIC_NAME_PATTERN)
    comparison: Comparison
    threshold: float
    for_points: int = Field(default=1, ge=1, le=10_000)
    hysteresis: float = Field(default=0.0, ge=0, description="Margin to clear a firing rule.")
    tags: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Only runs created with every one of these tags (all runs when empty).",
    )

    @field_validator("threshold", "hysteresis")
    @classmethod
    def _finite_number(cls, value: float) -> float:
        if not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value


class AlertRuleSpec(AlertCondition):
    """A condition on the metrics of every run of ``project``."""

    project: str = Field(pattern=r"^[^/\s]+/[^/\s]+$")


class AlertRuleInfo(AlertRuleSpec):
    id: str
    created_at: datetime


class AlertRuleList(Payload):
    rules: list[AlertRuleInfo]


class ListAlertRules(Payload):
    project: str


class DeleteAlertRule(Payload):
    project: str
    id: str
