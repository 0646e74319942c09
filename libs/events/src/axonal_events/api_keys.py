"""RPC payloads of project API keys (identity service), as the Langfuse SDK uses them.

A key is a pair: the public key ``pk-ax-...`` names it, the secret ``sk-ax-...`` proves it.
The secret is shown once, when the key is created; the identity service keeps only its hash.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import Payload
from axonal_events.principals import RoleName

__all__ = [
    "ApiKeyCreated",
    "ApiKeyInfo",
    "ApiKeyList",
    "CreateApiKeyRequest",
    "KeyProject",
    "ListApiKeysRequest",
    "RevokeApiKeyRequest",
    "VerifyApiKeyRequest",
]

_PROJECT = Field(pattern=r"^[^/\s]+/[^/\s]+$", description="``owner/name``.")


class CreateApiKeyRequest(Payload):
    project: str = _PROJECT
    note: str | None = Field(default=None, max_length=500)
    owner: str | None = Field(
        default=None, description="The principal the key acts for (its role in the project)."
    )


class KeyProject(Payload):
    """The project a key belongs to."""

    id: str
    owner: str
    name: str


class ApiKeyInfo(Payload):
    id: str
    public_key: str
    secret_hint: str = Field(description="The secret's last characters, to tell keys apart.")
    note: str | None = None
    project: KeyProject
    created_at: datetime
    owner: str | None = Field(default=None, description="The principal the key acts for.")
    role: RoleName = Field(
        default="member", description="What the key may do: its owner's role in the project."
    )


class ApiKeyCreated(ApiKeyInfo):
    secret_key: str = Field(description="Shown once; only its hash is stored.")


class VerifyApiKeyRequest(Payload):
    public_key: str = Field(max_length=200)
    secret_key: str = Field(max_length=200)


class ListApiKeysRequest(Payload):
    project: str = _PROJECT


class ApiKeyList(Payload):
    keys: list[ApiKeyInfo]


class RevokeApiKeyRequest(Payload):
    project: str = _PROJECT
    public_key: str
