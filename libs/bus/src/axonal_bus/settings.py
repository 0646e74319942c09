"""Connection settings shared by every process on the bus (env prefix ``AXONAL_``)."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from axonal_events import DEFAULT_NAMESPACE, Subjects

__all__ = ["BusSettings"]


class BusSettings(BaseSettings):
    """Where the bus is and how it is laid out.

    ``AXONAL_NATS_URL``, ``AXONAL_NAMESPACE`` (subject root, ``axonal``),
    ``AXONAL_STREAM_REPLICAS`` (1 on a laptop, 3 in production).
    """

    model_config = SettingsConfigDict(env_prefix="AXONAL_", extra="ignore")

    nats_url: str = "nats://127.0.0.1:4222"
    nats_user: str | None = None
    nats_password: SecretStr | None = None
    namespace: str = DEFAULT_NAMESPACE
    stream_replicas: int = Field(default=1, ge=1, le=5)

    @property
    def subjects(self) -> Subjects:
        return Subjects(self.namespace)
