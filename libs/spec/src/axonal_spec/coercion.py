"""Scalar and structured value converters, one per IO type name (used by ``types.convert``).

Each converter takes a plain value and returns the coerced, JSON-compatible value, or raises
:class:`Mismatch` (its message, if any, describes the accepted form).
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
import uuid
from collections.abc import Callable, Mapping, Sequence
from typing import Any

__all__ = ["CONVERTERS", "Mismatch", "to_dict", "to_list"]


class Mismatch(Exception):
    """The value does not fit the type; ``str(exc)`` names the expected form (may be empty)."""


_TRUE = {"true", "t", "yes", "y", "on", "1"}
_FALSE = {"false", "f", "no", "n", "off", "0"}


def _to_bool(v: Any) -> bool:
    if isinstance(v, bool):
        return v
    if isinstance(v, int | float) and v in (0, 1):
        return bool(v)
    if isinstance(v, str) and v.strip().lower() in _TRUE | _FALSE:
        return v.strip().lower() in _TRUE
    raise Mismatch


def _to_int(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    if isinstance(v, float) and v.is_integer():
        return int(v)
    if isinstance(v, str):
        try:
            return int(v.strip())
        except ValueError:
            pass
    raise Mismatch


def _to_float(v: Any) -> float:
    if isinstance(v, int | float) and not isinstance(v, bool):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v.strip())
        except ValueError:
            pass
    raise Mismatch


def _to_str(v: Any) -> str:
    if isinstance(v, str):
        return v
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int | float | dt.date):
        return v.isoformat() if isinstance(v, dt.date) else str(v)
    raise Mismatch


def to_list(v: Any) -> list[Any]:
    if isinstance(v, str) and v.lstrip().startswith("["):
        v = _json(v)
    if isinstance(v, list | tuple):
        return list(v)
    raise Mismatch


def to_dict(v: Any) -> dict[Any, Any]:
    if isinstance(v, str) and v.lstrip().startswith("{"):
        v = _json(v)
    if isinstance(v, Mapping):
        return dict(v)
    raise Mismatch


def _json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        raise Mismatch from None


def _to_dict_of_dicts(v: Any) -> dict[Any, Any]:
    out = to_dict(v)
    if all(isinstance(x, Mapping) for x in out.values()):
        return out
    raise Mismatch("a dict whose values are dicts")


def _to_date(v: Any) -> str:
    if isinstance(v, dt.datetime):
        raise Mismatch("YYYY-MM-DD")
    if isinstance(v, dt.date):
        return v.isoformat()
    try:
        return dt.date.fromisoformat(_to_text(v, "YYYY-MM-DD")).isoformat()
    except ValueError:
        raise Mismatch("YYYY-MM-DD") from None


def _to_datetime(v: Any) -> str:
    if isinstance(v, dt.datetime):
        return v.isoformat()
    if isinstance(v, dt.date):
        return dt.datetime.combine(v, dt.time()).isoformat()
    try:
        return dt.datetime.fromisoformat(_to_text(v, "ISO 8601")).isoformat()
    except ValueError:
        raise Mismatch("ISO 8601") from None


def _to_timedelta(v: Any) -> int | float:
    if isinstance(v, dt.timedelta):
        seconds = v.total_seconds()
        return int(seconds) if seconds.is_integer() else seconds
    if isinstance(v, int) and not isinstance(v, bool):
        return v
    number = _to_float(v) if not isinstance(v, bool) else math.nan
    if not math.isfinite(number):
        raise Mismatch("seconds")
    return int(number) if number.is_integer() else number


def _to_text(v: Any, form: str = "") -> str:
    if isinstance(v, str) and v.strip():
        return v.strip()
    raise Mismatch(form)


def _to_uuid(v: Any) -> str:
    if isinstance(v, uuid.UUID):
        return str(v)
    try:
        uuid.UUID(_to_text(v))
    except ValueError:
        raise Mismatch from None
    return str(v).strip()


def _pattern(regex: str, form: str) -> Callable[[Any], Any]:
    compiled = re.compile(regex)

    def check(v: Any) -> Any:
        if isinstance(v, str) and compiled.fullmatch(v.strip()):
            return v.strip()
        raise Mismatch(form)

    return check


def _string_or_dict(regex: str, keys: Sequence[str], form: str) -> Callable[[Any], Any]:
    """A string matching ``regex`` (kept as is) or a dict with string ``keys`` (all required)."""
    as_string = _pattern(regex, form)

    def check(v: Any) -> Any:
        if isinstance(v, Mapping):
            if set(v) == set(keys) and all(isinstance(v[k], str) for k in keys):
                return dict(v)
            raise Mismatch(form)
        return as_string(v)

    return check


def _mapping(required: str | None = None, allowed: Sequence[str] = ()) -> Callable[[Any], Any]:
    def check(v: Any) -> Any:
        out = to_dict(v)
        if required is not None and not isinstance(out.get(required), str):
            raise Mismatch(f"a dict with {required!r}")
        if allowed and not set(out) <= set(allowed):
            raise Mismatch("a dict with keys " + ", ".join(allowed))
        return out

    return check


def _to_git(v: Any) -> Any:
    if isinstance(v, str):
        return _to_text(v, "a url or {url, revision, flags}")
    out = _mapping(allowed=("url", "revision", "flags"))(v)
    if any(not isinstance(out.get(k, ""), str) for k in ("url", "revision")):
        raise Mismatch("a url or {url, revision, flags}")
    return out


def _to_image(v: Any) -> str:
    text = _to_text(v)
    if any(c.isspace() for c in text):
        raise Mismatch
    return text


CONVERTERS: dict[str, Callable[[Any], Any]] = {
    "any": lambda v: v,
    "int": _to_int,
    "float": _to_float,
    "metric": _to_float,
    "bool": _to_bool,
    "str": _to_str,
    "path": _to_text,
    "image": _to_image,
    "dict": to_dict,
    "metadata": to_dict,
    "dict_of_dicts": _to_dict_of_dicts,
    "list": to_list,
    "date": _to_date,
    "datetime": _to_datetime,
    "timedelta": _to_timedelta,
    "uuid": _to_uuid,
    "email": _pattern(r"[^@\s]+@[^@\s]+\.[^@\s]+", ""),
    "uri": _string_or_dict(
        r"[^:@]+:[^@]*@.+", ("user", "password", "host"), "'user:password@host' or a dict"
    ),
    "auth": _string_or_dict(r"[^:]+:.*", ("user", "password"), "'user:password' or a dict"),
    "s3": _string_or_dict(r"s3://[^/\s]+(/\S*)?", ("bucket", "key"), "s3://bucket/key"),
    "gcs": _string_or_dict(r"gs://[^/\s]+(/\S*)?", ("bucket", "blob"), "gs://bucket/blob"),
    "wasb": _string_or_dict(
        r"wasbs?://[^@\s]+@[^.\s]+\.blob\.core\.windows\.net(/\S*)?",
        ("container", "storage_account", "path"),
        "wasbs://container@account.blob.core.windows.net/path",
    ),
    "git": _to_git,
    "artifacts": _mapping(allowed=("files", "dirs", "workers")),
    "dockerfile": _mapping(required="image"),
    "file": _mapping(required="content"),
    "tensorboard": _mapping(),
    "event": lambda v: _to_text(v) if isinstance(v, str) else to_dict(v),
}
