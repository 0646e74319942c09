"""Standard Webhooks signatures: ``webhook-id``, ``webhook-timestamp``, ``webhook-signature``."""

from __future__ import annotations

import base64
import secrets
from datetime import UTC, datetime

from standardwebhooks import Webhook

__all__ = ["new_secret", "signed_headers"]

SECRET_PREFIX = "whsec_"  # noqa: S105 - the format's prefix, not a secret


def new_secret() -> str:
    """A fresh signing secret: ``whsec_`` and 32 random bytes in base64."""
    return SECRET_PREFIX + base64.b64encode(secrets.token_bytes(32)).decode()


def signed_headers(secret: str, msg_id: str, at: datetime, body: bytes) -> dict[str, str]:
    """The three signature headers of a POST of ``body`` sent at ``at`` (timezone-aware)."""
    signature = Webhook(secret).sign(msg_id, at.astimezone(UTC), body.decode())
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(at.timestamp())),
        "webhook-signature": signature,
    }
