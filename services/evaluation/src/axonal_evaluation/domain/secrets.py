"""LLM connection secrets: encrypted at rest (Fernet), masked on read."""

from __future__ import annotations

from cryptography.fernet import Fernet, InvalidToken

__all__ = ["InvalidToken", "decrypt", "encrypt", "mask"]


def encrypt(key: str, secret: str) -> str:
    return Fernet(key.encode()).encrypt(secret.encode()).decode()


def decrypt(key: str, token: str) -> str:
    """The secret; :class:`InvalidToken` when ``key`` is not the one that encrypted it."""
    return Fernet(key.encode()).decrypt(token.encode()).decode()


def mask(secret: str) -> str:
    """What a read shows of a secret: ``sk-...f00d`` (never more than its last 4 characters)."""
    if len(secret) <= 8:
        return "..." + secret[-2:]
    return f"{secret[:3]}...{secret[-4:]}"
