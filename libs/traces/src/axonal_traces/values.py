"""Small value conversions shared by the converters: JSON-ish strings, times, ids."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import msgspec

__all__ = [
    "EPOCH",
    "as_int",
    "error_reason",
    "is_hex_id",
    "json_or_text",
    "json_text",
    "nanos_to_datetime",
    "parse_time",
]

EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MICROSECOND = timedelta(microseconds=1)
_HEX = re.compile(r"^[0-9a-f]+$")
_JSON_START = frozenset('{["-0123456789tfn')  # what a JSON text can begin with
_decode_json = msgspec.json.Decoder().decode


def json_or_text(value: Any) -> Any:
    """A string holding JSON becomes that JSON value; any other value is returned as is."""
    if not isinstance(value, str):
        return value
    head = value[:1]
    if head.isspace():
        head = value.lstrip()[:1]
    if head not in _JSON_START:  # plain text: not worth a failed parse
        return value
    try:
        return _decode_json(value)
    except msgspec.DecodeError:  # also NaN, Infinity or an integer past 64 bits, which json takes
        pass
    try:
        return json.loads(value)
    except ValueError:
        return value


def json_text(value: Any) -> str:
    """``value`` as a string: strings unchanged, anything else as compact JSON."""
    if isinstance(value, str):
        return value
    if type(value) is int:  # the common case, without json's machinery
        return str(value)
    return json.dumps(value, separators=(",", ":"), default=str)


def nanos_to_datetime(value: Any) -> datetime | None:
    """OTLP ``*UnixNano`` (an int or a decimal string) as an aware datetime; ``None`` if unset."""
    if value in (None, "", 0, "0"):
        return None
    return EPOCH + int(value) // 1000 * _MICROSECOND


def parse_time(value: Any) -> datetime | None:
    """An ISO-8601 string (``Z`` accepted; naive means UTC) as an aware datetime."""
    value = json_or_text(value) if isinstance(value, str) and value.startswith('"') else value
    if isinstance(value, datetime):
        parsed = value
    elif isinstance(value, str) and value:
        parsed = datetime.fromisoformat(value.replace("Z", "+00:00"))
    else:
        return None
    return parsed if parsed.tzinfo else parsed.replace(tzinfo=UTC)


def as_int(value: Any) -> int | None:
    """An integer from an int, an integral float or a decimal string; ``None`` otherwise."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str):
        try:
            return as_int(float(value)) if "." in value else int(value)
        except ValueError:
            return None
    return None


def is_hex_id(value: Any, length: int) -> bool:
    """``value`` is ``length`` lowercase hex digits, not all zero (as OTLP requires)."""
    return (
        isinstance(value, str)
        and len(value) == length
        and bool(_HEX.match(value))
        and value.strip("0") != ""
    )


def error_reason(exc: ValueError) -> str:
    """Why a value was refused: the first error of a model validation, else the message."""
    errors = getattr(exc, "errors", None)
    if not callable(errors):
        return str(exc)
    first = errors()[0]
    where = ".".join(str(part) for part in first["loc"])
    return f"{where}: {first['msg']}" if where else str(first["msg"])
