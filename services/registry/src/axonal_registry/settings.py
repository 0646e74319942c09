"""Registry settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...); the service has none of its own yet (prefix ``AXONAL_REGISTRY_``)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["RegistrySettings"]


class RegistrySettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="AXONAL_REGISTRY_")
