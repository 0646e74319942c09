"""Tracking settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...), the artifact store (``AXONAL_ARTIFACTS_URL``, shared with the
api: deleted projects, runs and expired artifacts leave it too) and retention passes
(prefix ``AXONAL_TRACKING_``)."""

from __future__ import annotations

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["TrackingSettings"]


class TrackingSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="AXONAL_TRACKING_")

    artifacts_url: str | None = Field(
        default=None,
        validation_alias=AliasChoices("AXONAL_ARTIFACTS_URL", "artifacts_url"),
        description="file:///path, a path or s3://; none: stored objects are left alone.",
    )
    retention_every: float = Field(default=3600.0, gt=0, description="Seconds between passes.")
    retention_batch: int = Field(default=1000, ge=1, description="Rows deleted per transaction.")

    @field_validator("artifacts_url", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return value or None
