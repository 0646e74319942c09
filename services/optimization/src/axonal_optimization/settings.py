"""Optimization settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the service's own (prefix ``AXONAL_OPTIMIZATION_``)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["OptimizationSettings"]


class OptimizationSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="AXONAL_OPTIMIZATION_")

    metric_wait: float = Field(
        default=15.0,
        ge=0,
        description="Seconds to wait for tracking to hold a succeeded trial's metric.",
    )
    prune_interval: float = Field(
        default=2.0, gt=0, description="Seconds between reads of running trials' metrics."
    )
