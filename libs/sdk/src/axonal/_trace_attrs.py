"""Span attributes as the Axonal (and Langfuse) OTLP server reads them; pure, no OpenTelemetry.

Values are JSON-encoded (strings too, so ``"4"`` stays a string); ``None`` means "not set".
"""

from __future__ import annotations

import dataclasses
import inspect
import json
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypedDict, Unpack

__all__ = [
    "LEVELS",
    "ObservationFields",
    "TraceFields",
    "arguments",
    "encode",
    "observation_attributes",
    "stream_output",
    "trace_attributes",
]

AttributeValue = str | bool | int | float | Sequence[str]
LEVELS = frozenset({"DEBUG", "DEFAULT", "WARNING", "ERROR"})
_OBS = "langfuse.observation."


def _plain(value: Any) -> Any:
    """A JSON-able stand-in for what ``json`` cannot encode."""
    if hasattr(value, "model_dump"):
        return value.model_dump(mode="json")
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, set | frozenset | tuple):
        return list(value)
    if isinstance(value, bytes):
        return f"<{len(value)} bytes>"
    return repr(value)


def encode(value: Any) -> str:
    """``value`` as compact JSON; objects JSON cannot encode become their ``repr``."""
    try:
        return json.dumps(value, default=_plain, ensure_ascii=False, separators=(",", ":"))
    except (ValueError, TypeError, RecursionError):  # circular, or a failing model_dump
        return json.dumps(repr(value), ensure_ascii=False)


def arguments(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """The call's arguments by parameter name (without ``self``/``cls``), for ``input``."""
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
    except (TypeError, ValueError):  # the call itself will say what is wrong
        return {"args": list(args), "kwargs": kwargs}
    named = dict(bound.arguments)
    first = next(iter(named), None)
    if first in ("self", "cls"):
        named.pop(first)
    return named


def stream_output(items: list[Any]) -> Any:
    """What a generator yielded: one string if it yielded strings (streamed text), else a list."""
    if items and all(isinstance(item, str) for item in items):
        return "".join(items)
    return items


class ObservationFields(TypedDict, total=False):
    """What an observation may be given (Langfuse's names)."""

    as_type: str | None
    input: Any
    output: Any
    metadata: Mapping[str, Any] | None
    level: str | None
    status_message: str | None
    version: str | None
    model: str | None
    model_parameters: Mapping[str, Any] | None
    usage_details: Mapping[str, int] | None
    cost_details: Mapping[str, float] | None
    completion_start_time: datetime | None


class TraceFields(TypedDict, total=False):
    """What a trace may be given through any of its spans."""

    name: str | None
    user_id: str | None
    session_id: str | None
    tags: Sequence[str] | None
    metadata: Mapping[str, Any] | None
    input: Any
    output: Any
    public: bool | None


#: field -> (attribute, whether the value is JSON-encoded)
_OBSERVATION = {
    "as_type": (_OBS + "type", False),
    "input": (_OBS + "input", True),
    "output": (_OBS + "output", True),
    "metadata": (_OBS + "metadata", True),
    "level": (_OBS + "level", False),
    "status_message": (_OBS + "status_message", False),
    "version": ("langfuse.version", False),
    "model": (_OBS + "model.name", False),
    "model_parameters": (_OBS + "model.parameters", True),
    "usage_details": (_OBS + "usage_details", True),
    "cost_details": (_OBS + "cost_details", True),
    "completion_start_time": (_OBS + "completion_start_time", False),
}
_TRACE = {
    "name": ("langfuse.trace.name", False),
    "user_id": ("user.id", False),
    "session_id": ("session.id", False),
    "tags": ("langfuse.trace.tags", False),
    "metadata": ("langfuse.trace.metadata", True),
    "input": ("langfuse.trace.input", True),
    "output": ("langfuse.trace.output", True),
    "public": ("langfuse.trace.public", False),
}


def _attributes(
    keys: Mapping[str, tuple[str, bool]], fields: Mapping[str, Any]
) -> dict[str, AttributeValue]:
    found: dict[str, AttributeValue] = {}
    for field, value in fields.items():
        if value is None:
            continue
        key, encoded = keys[field]
        if encoded:
            found[key] = encode(dict(value) if isinstance(value, Mapping) else value)
        elif isinstance(value, datetime):
            found[key] = value.isoformat()
        elif isinstance(value, list | tuple):
            found[key] = [str(item) for item in value]
        else:
            found[key] = value
    return found


def observation_attributes(**fields: Unpack[ObservationFields]) -> dict[str, AttributeValue]:
    """``langfuse.observation.*`` attributes of the fields given (``None`` ones left out)."""
    level = fields.get("level")
    if level is not None:
        if level.upper() not in LEVELS:
            raise ValueError(f"level must be one of {sorted(LEVELS)}, not {level!r}")
        fields["level"] = level.upper()
    if as_type := fields.get("as_type"):
        fields["as_type"] = as_type.lower()
    return _attributes(_OBSERVATION, fields)


def trace_attributes(**fields: Unpack[TraceFields]) -> dict[str, AttributeValue]:
    """Trace-level attributes (any span may carry them; the server merges them into the trace)."""
    return _attributes(_TRACE, fields)
