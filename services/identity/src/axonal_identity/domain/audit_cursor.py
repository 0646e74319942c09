"""The audit trail's page cursor: the last entry's time and id, opaque to clients."""

from __future__ import annotations

import base64
import binascii
from datetime import datetime

__all__ = ["InvalidCursor", "decode_cursor", "encode_cursor"]


class InvalidCursor(ValueError):
    """Not a cursor this service gave."""


def encode_cursor(occurred_at: datetime, event_id: str) -> str:
    return base64.urlsafe_b64encode(f"{occurred_at.isoformat()}|{event_id}".encode()).decode()


def decode_cursor(cursor: str) -> tuple[datetime, str]:
    try:
        when, sep, event_id = base64.urlsafe_b64decode(cursor.encode()).decode().partition("|")
        if not sep or not event_id:
            raise InvalidCursor(f"not a cursor: {cursor!r}")
        return datetime.fromisoformat(when), event_id
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidCursor(f"not a cursor: {cursor!r}") from None
