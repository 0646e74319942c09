"""Settings of the api: ``AXONAL_API_HOST``/``PORT``/``TOKEN``/``RPC_TIMEOUT``/``WEB_DIR``, the
artifact store (``AXONAL_ARTIFACTS_URL``, ``AXONAL_ARTIFACT_MAX_BYTES``), the default quotas
(``AXONAL_API_DEFAULT_SPANS_PER_SECOND``...) + the bus's."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr, field_validator

from axonal_api.web_dist import source_web_dist
from axonal_bus.settings import BusSettings

__all__ = ["ApiSettings"]


class ApiSettings(BusSettings):
    """The bus settings (``AXONAL_NATS_URL``, ``AXONAL_NAMESPACE``) plus the HTTP server's.

    ``api_token`` unset means no authentication (a warning is logged at start-up). With
    ``run_token_secret`` (``AXONAL_RUN_TOKEN_SECRET``, shared with the agents) the api also
    accepts the token a run's process gets, for that run's project only.

    ``api_web_dir`` is the built web UI, served at ``/`` (``services/web/dist`` of the source
    tree by default); set it empty to serve no UI.
    """

    api_host: str = "127.0.0.1"
    api_port: int = Field(default=8000, ge=0, le=65535)
    api_token: SecretStr | None = None
    run_token_secret: SecretStr | None = None
    api_rpc_timeout: float = Field(default=5.0, gt=0, description="Seconds to wait for an RPC.")
    api_apply_wait: float = Field(
        default=10.0,
        ge=0,
        description="Seconds a submit or run action waits to be applied before it answers "
        "(then the client's next read sees it); past that it answers, and is applied later.",
    )
    artifacts_url: str | None = Field(default=None, description="file:///path, a path or s3://")
    artifact_max_bytes: int = Field(default=5 * 2**30, gt=0, description="Largest upload.")
    api_default_spans_per_second: int | None = Field(
        default=None, ge=1, description="A project's ingest rate unless it sets its own."
    )
    api_default_points_per_second: int | None = Field(
        default=None, ge=1, description="A project's metric points rate unless it sets its own."
    )
    api_default_storage_bytes: int | None = Field(
        default=None, ge=0, description="A project's artifact storage unless it sets its own."
    )
    api_web_dir: Path | None = Field(
        default_factory=source_web_dist,
        description="The built web UI (index.html, assets/), served at /; empty: no UI.",
    )
    log_level: str = "INFO"
    log_json: bool | None = None
    replica: int | None = Field(
        default=None, ge=1, description="This api's number among its replicas (AXONAL_REPLICA)."
    )
    replicas: int = Field(
        default=1,
        ge=1,
        description="How many api replicas share the traffic (AXONAL_REPLICAS): each enforces "
        "its share of a project's rates.",
    )

    @field_validator("api_token", "run_token_secret", "artifacts_url", "api_web_dir", mode="before")
    @classmethod
    def _empty_is_unset(cls, value: object) -> object:
        return value or None
