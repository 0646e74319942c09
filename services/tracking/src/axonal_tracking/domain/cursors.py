"""Page cursors: opaque strings that name the last item of a page, newest-first orders.

An observation cursor has Langfuse's form (base64 of ``{"lastStartTimeTo", "lastTraceId",
"lastId"}``); a score cursor is URL-safe base64 of ``<timestamp>|<id>``.
"""

from __future__ import annotations

import base64
import binascii
import json
from datetime import UTC, datetime

__all__ = [
    "InvalidCursor",
    "decode_observation",
    "decode_score",
    "encode_observation",
    "encode_score",
]


class InvalidCursor(ValueError):
    """A cursor this service did not hand out."""


def _aware(at: datetime) -> datetime:
    """A naive time read as UTC, as Langfuse's cursors are."""
    return at if at.tzinfo else at.replace(tzinfo=UTC)


def encode_observation(start_time: datetime, trace_id: str, observation_id: str) -> str:
    last = {"lastStartTimeTo": start_time.isoformat(), "lastTraceId": trace_id}
    return base64.b64encode(json.dumps(last | {"lastId": observation_id}).encode()).decode()


def decode_observation(cursor: str) -> tuple[datetime, str, str]:
    """``(start time, trace id, id)`` of the last observation of the previous page."""
    try:
        last = json.loads(base64.b64decode(cursor.encode(), validate=True))
        at = _aware(datetime.fromisoformat(last["lastStartTimeTo"]))
        trace_id, observation_id = last["lastTraceId"], last["lastId"]
    except (binascii.Error, ValueError, TypeError, KeyError):
        raise InvalidCursor(f"not a cursor: {cursor!r}") from None
    if not (isinstance(trace_id, str) and isinstance(observation_id, str)):
        raise InvalidCursor(f"not a cursor: {cursor!r}")
    return at, trace_id, observation_id


def encode_score(timestamp: datetime, score_id: str) -> str:
    return base64.urlsafe_b64encode(f"{timestamp.isoformat()}|{score_id}".encode()).decode()


def decode_score(cursor: str) -> tuple[datetime, str]:
    """``(timestamp, id)`` of the last score of the previous page."""
    try:
        at, _, key = base64.urlsafe_b64decode(cursor.encode()).decode().partition("|")
        return _aware(datetime.fromisoformat(at)), key
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise InvalidCursor(f"not a cursor: {cursor!r}") from None
