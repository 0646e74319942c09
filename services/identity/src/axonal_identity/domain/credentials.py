"""Passwords (Argon2id, stretched: people choose them) and tokens (random: hashed once)."""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from axonal_events import uuid7
from axonal_identity.domain.api_keys import hash_secret

__all__ = [
    "TOKEN_PREFIX",
    "NewToken",
    "hash_password",
    "new_token",
    "password_matches",
    "token_from",
]

TOKEN_PREFIX = "axt_"  # noqa: S105 - a prefix, not a secret
_HASHER = PasswordHasher()


@dataclass(frozen=True)
class NewToken:
    id: str
    token: str
    token_hash: str
    hint: str


def hash_password(password: str) -> str:
    return _HASHER.hash(password)


def password_matches(stored_hash: str | None, password: str) -> bool:
    if not stored_hash:
        return False
    try:
        return _HASHER.verify(stored_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def token_from(secret: str) -> NewToken:
    """The stored form of ``secret`` (a bootstrap token given by the operator)."""
    return NewToken(str(uuid7()), secret, hash_secret(secret), secret[-4:])


def new_token() -> NewToken:
    """A fresh token; it leaves only in the reply to its creation."""
    return token_from(TOKEN_PREFIX + secrets.token_urlsafe(32))
