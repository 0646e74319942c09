"""Evaluation settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the service's own (prefix ``AXONAL_EVALUATION_``)."""

from __future__ import annotations

from pydantic import Field, field_validator
from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["DEFAULT_SECRET_KEY", "EvaluationSettings"]

#: Encrypts LLM connection secrets when no key is set: fine for ``make up`` on a laptop; set
#: ``AXONAL_EVALUATION_SECRET_KEY`` (``Fernet.generate_key()``) anywhere else.
DEFAULT_SECRET_KEY = "YXhvbmFsLWRldmVsb3BtZW50LW9ubHktc2VjcmV0LWs="  # noqa: S105


class EvaluationSettings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="AXONAL_EVALUATION_")

    secret_key: str = Field(
        default=DEFAULT_SECRET_KEY, description="Fernet key (urlsafe base64, 32 bytes)."
    )

    @field_validator("secret_key")
    @classmethod
    def _unset_when_empty(cls, value: str) -> str:
        """An empty variable (compose's ``${VAR:-}``) means none was set."""
        return value or DEFAULT_SECRET_KEY

    job_workers: int = Field(default=256, ge=1, description="Jobs one replica runs at once.")
    judge_timeout: float = Field(default=60.0, gt=0, description="Seconds per provider call.")
