"""Identity settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the first administrator's (prefix ``AXONAL_IDENTITY_``)."""

from __future__ import annotations

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["IdentitySettings"]


class IdentitySettings(ServiceSettings):
    """``admin_password``/``admin_token`` make (or update) the superuser ``admin_name``."""

    model_config = SettingsConfigDict(env_prefix="AXONAL_IDENTITY_")

    admin_name: str = Field(default="admin", pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
    admin_password: SecretStr | None = Field(default=None, min_length=8)
    admin_token: SecretStr | None = Field(default=None, min_length=16)

    @field_validator("admin_password", "admin_token", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        """An empty variable (compose's ``${VAR:-}``) sets nothing."""
        return None if value == "" else value
