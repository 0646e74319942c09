"""Metric points a run logs, on ``<ns>.ingest.metrics.<run_uuid>``, and their queries.

A batch carries many points (publishing one point per message would cap throughput). The
publisher sets ``Nats-Msg-Id`` = ``<run_uuid>:<writer id>:<batch seq>`` so a retried publish is
stored once; the tracking service keys points by (run, name, step), so a redelivered or
re-sent point never becomes two.

Values may be NaN or infinite (a diverging run logs them): every payload here writes them as
the strings ``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` (see :mod:`axonal_events.numbers`).
"""

from __future__ import annotations

import math
from datetime import datetime

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload
from axonal_events.catalog.alerts import VALUE_CHECKS, Comparison
from axonal_events.numbers import NON_FINITE_AS_STRINGS, MetricValue

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
    model_config = NON_FINITE_AS_STRINGS

    name: str = Field(pattern=METRIC_NAME_PATTERN)
    step: int = Field(ge=0, le=2**62)
    value: MetricValue
    at: datetime


class MetricBatch(Payload):
    run_uuid: str = Field(pattern=r"^[0-9a-f]{32}$")
    points: list[MetricPoint] = Field(min_length=1, max_length=MAX_POINTS_PER_BATCH)


class ReadSeries(Payload):
    """Series of ``names`` (all when empty) for each run, reduced to at most ``points`` each;
    only the steps from ``first_step`` to ``last_step`` (both included) when they are set."""

    run_uuids: list[str] = Field(min_length=1, max_length=100)
    names: list[str] = Field(default_factory=list, max_length=100)
    points: int = Field(default=1000, ge=2, le=100_000)
    first_step: int | None = Field(default=None, ge=0)
    last_step: int | None = Field(default=None, ge=0)


class SeriesPoint(Payload):
    """One bucket of steps: its last step and the value there, the smallest and largest value
    within it and how many of its points are NaN, and when the last step was logged.

    ``min`` and ``max`` leave NaN points out (infinities count); they are NaN only when every
    point of the bucket is. ``value`` is the last step's value as stored, NaN included.
    """

    model_config = NON_FINITE_AS_STRINGS

    step: int
    value: MetricValue
    min: MetricValue
    max: MetricValue
    nans: int = Field(default=0, description="Points of the bucket whose value is NaN.")
    at: datetime | None = Field(default=None, description="When the last step was logged.")


class MetricSeries(Payload):
    run_uuid: str
    name: str
    total: int = Field(
        description="Points stored (in the steps asked for); more than returned when downsampled."
    )
    points: list[SeriesPoint]


class SeriesList(Payload):
    series: list[MetricSeries]


class ReadLatest(Payload):
    run_uuids: list[str] = Field(min_length=1, max_length=1000)


class LatestMetrics(Payload):
    """``values[run_uuid][name]`` = the value at the highest step (NaN included)."""

    model_config = NON_FINITE_AS_STRINGS

    values: dict[str, dict[str, MetricValue]]


class AlertCondition(Payload):
    """``metric comparison threshold`` for ``for_points`` consecutive points, or ``metric is_nan``
    / ``metric is_inf`` (either infinity), which take no threshold and no hysteresis."""

    metric: str = Field(pattern=METRIC_NAME_PATTERN)
    comparison: Comparison
    threshold: float | None = Field(default=None, description="Required but by is_nan, is_inf.")
    for_points: int = Field(default=1, ge=1, le=10_000)
    hysteresis: float = Field(default=0.0, ge=0, description="Margin to clear a firing rule.")
    tags: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="Only runs created with every one of these tags (all runs when empty).",
    )

    @field_validator("threshold", "hysteresis")
    @classmethod
    def _finite_number(cls, value: float | None) -> float | None:
        if value is not None and not math.isfinite(value):
            raise ValueError("must be a finite number")
        return value

    @model_validator(mode="after")
    def _threshold_as_comparison_wants(self) -> AlertCondition:
        if self.comparison in VALUE_CHECKS:
            if self.threshold is not None or self.hysteresis:
                raise ValueError(f"{self.comparison.value} takes no threshold and no hysteresis")
        elif self.threshold is None:
            raise ValueError(f"{self.comparison.value} needs a threshold")
        return self


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
