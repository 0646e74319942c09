"""Connection settings shared by every process on the bus (``AXONAL_NATS_URL``...).

Each field reads its environment variable by its full name, so a service's settings can
subclass these with an ``env_prefix`` of their own (``AXONAL_SCHEDULER_``) for their own
fields and still read the shared ones.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from axonal_events import DEFAULT_NAMESPACE, Subjects

__all__ = ["BusSettings", "split_nats_urls"]


def split_nats_urls(value: str) -> list[str]:
    """The servers of ``AXONAL_NATS_URL``: one URL, or several separated by commas (the
    nodes of a cluster, tried in turn by the client)."""
    return [url.strip() for url in value.split(",") if url.strip()]


def _shown(url: str) -> str:
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


class BusSettings(BaseSettings):
    """Where the bus is and how it is laid out.

    ``AXONAL_NATS_URL`` (comma-separated for the nodes of a cluster), ``AXONAL_NATS_USER``,
    ``AXONAL_NATS_PASSWORD``, ``AXONAL_NAMESPACE`` (subject root, ``axonal``),
    ``AXONAL_STREAM_REPLICAS`` (1 on a laptop, 3 in production).
    """

    model_config = SettingsConfigDict(env_prefix="AXONAL_", extra="ignore", populate_by_name=True)

    nats_url: str = Field(default="nats://127.0.0.1:4222", validation_alias="AXONAL_NATS_URL")
    nats_user: str | None = Field(default=None, validation_alias="AXONAL_NATS_USER")
    nats_password: SecretStr | None = Field(default=None, validation_alias="AXONAL_NATS_PASSWORD")
    namespace: str = Field(default=DEFAULT_NAMESPACE, validation_alias="AXONAL_NAMESPACE")
    stream_replicas: int = Field(default=1, ge=1, le=5, validation_alias="AXONAL_STREAM_REPLICAS")

    @property
    def subjects(self) -> Subjects:
        return Subjects(self.namespace)

    @property
    def nats_servers(self) -> list[str]:
        """Every server of ``nats_url``, as the NATS client takes them."""
        return split_nats_urls(self.nats_url)

    @property
    def nats_url_shown(self) -> str:
        """``nats_url`` without a password it may carry: for logs."""
        return ",".join(_shown(url) for url in self.nats_servers)
