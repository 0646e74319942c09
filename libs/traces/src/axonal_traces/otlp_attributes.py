"""OTLP-JSON ``AnyValue`` and ``KeyValue`` lists as plain Python values."""

from __future__ import annotations

import base64
from typing import Any

__all__ = ["OtlpFormatError", "attributes", "decode_value"]


class OtlpFormatError(ValueError):
    """The export is not a well-formed OTLP trace export; the whole request is refused."""


_SCALARS: dict[str, Any] = {
    "stringValue": str,
    "boolValue": bool,
    "intValue": int,
    "doubleValue": float,
    "bytesValue": lambda raw: base64.b64decode(raw).hex(),
}


def decode_value(value: Any) -> Any:
    """One ``AnyValue`` (``{"stringValue": ...}``, ``{"arrayValue": {"values": [...]}}``...)."""
    if not isinstance(value, dict) or not value:
        return None
    kind, inner = next(iter(value.items()))
    if kind in _SCALARS:
        return _SCALARS[kind](inner)
    if kind == "arrayValue":
        return [decode_value(v) for v in (inner or {}).get("values", [])]
    if kind == "kvlistValue":
        return attributes((inner or {}).get("values", []), "kvlistValue")
    return None


def attributes(items: Any, where: str) -> dict[str, Any]:
    """A ``KeyValue`` list as a dict (a later duplicate key wins)."""
    if items is None:
        return {}
    if not isinstance(items, list):
        raise OtlpFormatError(f"{where}: attributes must be an array")
    found: dict[str, Any] = {}
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("key"), str):
            raise OtlpFormatError(f"{where}: every attribute needs a string key")
        try:
            found[item["key"]] = decode_value(item.get("value"))
        except (TypeError, ValueError) as exc:
            raise OtlpFormatError(f"{where}: attribute {item['key']}: {exc}") from None
    return found
