"""Project API keys: a public key that names the key and a secret that proves it."""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from axonal_events import uuid7

__all__ = ["NewKey", "hash_secret", "new_key", "secret_matches"]

PUBLIC_PREFIX = "pk-ax-"
SECRET_PREFIX = "sk-ax-"  # noqa: S105 - a prefix, not a secret


@dataclass(frozen=True)
class NewKey:
    id: str
    public_key: str
    secret_key: str
    secret_hash: str
    secret_hint: str


def hash_secret(secret: str) -> str:
    """SHA-256 of the secret (256 random bits: no stretching needed)."""
    return hashlib.sha256(secret.encode()).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    return hmac.compare_digest(hash_secret(secret), stored_hash)


def new_key() -> NewKey:
    """A fresh key pair; the secret leaves only in the reply to its creation."""
    public_key = PUBLIC_PREFIX + secrets.token_hex(12)
    secret_key = SECRET_PREFIX + secrets.token_urlsafe(32)
    return NewKey(
        id=str(uuid7()),
        public_key=public_key,
        secret_key=secret_key,
        secret_hash=hash_secret(secret_key),
        secret_hint=secret_key[-4:],
    )
