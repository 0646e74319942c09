"""Notifications settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the service's own, prefixed ``AXONAL_NOTIFICATIONS_``.

Lists are comma-separated: ``AXONAL_NOTIFICATIONS_ALLOW_NETWORKS=10.0.0.0/8,127.0.0.1/32``.
"""

from __future__ import annotations

import ipaddress
from typing import Annotated, Any

from pydantic import Field, field_validator
from pydantic_settings import NoDecode, SettingsConfigDict

from axonal_bus.service import ServiceSettings
from axonal_notifications.domain.schedule import DEFAULT_SCHEDULE
from axonal_notifications.domain.targets import TargetPolicy

__all__ = ["NotificationSettings"]

Csv = Annotated[list[str], NoDecode]
CsvFloats = Annotated[list[float], NoDecode]


class NotificationSettings(ServiceSettings):
    """How deliveries are sent, retried and guarded."""

    model_config = SettingsConfigDict(env_prefix="AXONAL_NOTIFICATIONS_")

    attempt_timeout: float = Field(
        default=10.0, gt=0, description="Seconds per attempt (a POST or an SMTP session)."
    )
    retry_schedule: CsvFloats = Field(
        default_factory=lambda: list(DEFAULT_SCHEDULE),
        description="Seconds before each retry (each drawn with full jitter).",
    )
    breaker_threshold: int = Field(default=5, ge=1, description="Failures in a row to trip.")
    breaker_cooldown: float = Field(default=60.0, gt=0, description="Seconds an open URL waits.")
    concurrency: int = Field(default=64, ge=1, description="Deliveries in flight per replica.")
    poll_interval: float = Field(
        default=0.5, gt=0, description="Seconds between looks for other replicas' deliveries."
    )
    allow_hosts: Csv = Field(default_factory=list)
    allow_networks: Csv = Field(default_factory=list)
    deny_hosts: Csv = Field(default_factory=list)
    deny_networks: Csv = Field(default_factory=list)

    @field_validator(
        "retry_schedule", "allow_hosts", "allow_networks", "deny_hosts", "deny_networks",
        mode="before",
    )  # fmt: skip
    @classmethod
    def _split(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [item.strip() for item in value.split(",") if item.strip()]
        return value

    @field_validator("retry_schedule")
    @classmethod
    def _non_negative(cls, value: list[float]) -> list[float]:
        if any(step < 0 for step in value):
            raise ValueError("retry steps are seconds >= 0")
        return value

    @field_validator("allow_networks", "deny_networks")
    @classmethod
    def _networks(cls, value: list[str]) -> list[str]:
        for network in value:
            ipaddress.ip_network(network, strict=False)  # a ValueError names the bad one
        return value

    def target_policy(self) -> TargetPolicy:
        return TargetPolicy.parse(
            allow_hosts=self.allow_hosts,
            allow_networks=self.allow_networks,
            deny_hosts=self.deny_hosts,
            deny_networks=self.deny_networks,
        )
