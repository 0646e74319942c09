"""Early stopping for pipelines (dags and matrices): stop on failures or on a metric.

``failure_early_stopping`` stops the pipeline (``failed``) once ``percent`` of its runs failed;
``metric_early_stopping`` stops it (``succeeded``) once a run's ``metric`` crosses ``value`` in
the ``optimization`` direction, or, with a ``policy`` (``median``, ``truncation``, ``diff``),
stops only the runs the policy selects.
"""

from __future__ import annotations

from typing import Annotated, Literal, Self

from pydantic import BeforeValidator, StrictStr, Tag, model_validator

from axonal_spec.base import SpecModel
from axonal_spec.matrix._numbers import LenientFloat, LenientInt, PositiveInt, lower
from axonal_spec.matrix._union import kind_discriminator

__all__ = [
    "DiffStoppingPolicy",
    "EarlyStopping",
    "EarlyStoppingPolicy",
    "FailureEarlyStopping",
    "MedianStoppingPolicy",
    "MetricEarlyStopping",
    "Optimization",
    "TruncationStoppingPolicy",
]

Optimization = Annotated[Literal["maximize", "minimize"], BeforeValidator(lower)]
"""``maximize`` or ``minimize`` (any letter case)."""


class MedianStoppingPolicy(SpecModel):
    """Stop runs whose best metric is worse than the running median of the others."""

    kind: Literal["median"] = "median"
    evaluation_interval: PositiveInt
    min_interval: LenientInt | None = None
    min_samples: LenientInt | None = None


class TruncationStoppingPolicy(SpecModel):
    """Stop the worst ``percent`` of the runs at every evaluation."""

    kind: Literal["truncation"] = "truncation"
    percent: LenientFloat
    evaluation_interval: PositiveInt
    min_interval: LenientInt | None = None
    min_samples: LenientInt | None = None
    include_succeeded: bool | None = None


class DiffStoppingPolicy(SpecModel):
    """Stop runs worse than the best one by more than ``percent``."""

    kind: Literal["diff"] = "diff"
    percent: LenientFloat
    evaluation_interval: PositiveInt
    min_interval: LenientInt | None = None
    min_samples: LenientInt | None = None


EarlyStoppingPolicy = Annotated[
    Annotated[MedianStoppingPolicy, Tag("~median")]
    | Annotated[TruncationStoppingPolicy, Tag("~truncation")]
    | Annotated[DiffStoppingPolicy, Tag("~diff")],
    kind_discriminator("policy", ("median", "truncation", "diff")),
]


class FailureEarlyStopping(SpecModel):
    """Fail the pipeline once ``percent`` (0 < percent <= 100) of its runs failed."""

    kind: Literal["failure_early_stopping"] = "failure_early_stopping"
    percent: LenientFloat

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not 0 < self.percent <= 100:
            raise ValueError(f"percent must be in (0, 100], got {self.percent:g}")
        return self


class MetricEarlyStopping(SpecModel):
    """Stop when a run's ``metric`` reaches ``value`` (``maximize``: >=, ``minimize``: <=)."""

    kind: Literal["metric_early_stopping"] = "metric_early_stopping"
    metric: StrictStr
    value: LenientFloat
    optimization: Optimization
    policy: EarlyStoppingPolicy | None = None


EarlyStopping = Annotated[
    Annotated[FailureEarlyStopping, Tag("~failure_early_stopping")]
    | Annotated[MetricEarlyStopping, Tag("~metric_early_stopping")],
    kind_discriminator("earlyStopping", ("failure_early_stopping", "metric_early_stopping")),
]
"""One ``earlyStopping`` item (usable as ``early_stopping: list[EarlyStopping] | None``)."""
