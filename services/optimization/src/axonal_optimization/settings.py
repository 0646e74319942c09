"""Optimization settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the service's own (prefix ``AXONAL_OPTIMIZATION_``)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["OptimizationSettings"]


class OptimizationSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="AXONAL_OPTIMIZATION_")
