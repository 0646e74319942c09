"""Helpers: the Langfuse request fixtures (``tests/fixtures/langfuse``) and OTLP-JSON builders."""

from __future__ import annotations

import json
from typing import Any

from axonal_testing.conformance import project_fixtures
from axonal_traces import convert_export
from axonal_traces.otlp import SpanRecords

PROJECT = "proj-local-0001"
TRACE = "0af7651916cd43dd8448eb211c80319c"


def fixture(name: str) -> dict[str, Any]:
    """One request fixture: method, path, headers, the body and the expected response."""
    found: dict[str, Any] = json.loads((project_fixtures() / "langfuse" / name).read_text())
    return found


def otlp_export(name: str) -> dict[str, Any]:
    """The OTLP-JSON export of an ``otel/v1/traces`` fixture."""
    body: dict[str, Any] = fixture(name)["body"]
    return body


def one(attrs: dict[str, Any], **fields: Any) -> SpanRecords:
    """The records of an export of one span with ``attrs``."""
    return convert_export(export(span(attrs, **fields)), project_id=PROJECT)


def span(attrs: dict[str, Any], **fields: Any) -> dict[str, Any]:
    """One OTLP-JSON span with plain ``attrs`` encoded as ``KeyValue``s."""
    return {
        "traceId": "0af7651916cd43dd8448eb211c80319c",
        "spanId": "b7ad6b7169203331",
        "name": "op",
        "startTimeUnixNano": "1700000000000000000",
        "endTimeUnixNano": "1700000001000000000",
        "attributes": [{"key": k, "value": any_value(v)} for k, v in attrs.items()],
        **fields,
    }


def any_value(value: Any) -> dict[str, Any]:
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value}
    if isinstance(value, list):
        return {"arrayValue": {"values": [any_value(v) for v in value]}}
    return {"stringValue": value}


def export(
    *spans: dict[str, Any],
    resource: dict[str, Any] | None = None,
    scope: str = "langfuse-sdk",
    version: str = "5.0.4",
) -> dict[str, Any]:
    resource_attrs = [{"key": k, "value": any_value(v)} for k, v in (resource or {}).items()]
    return {
        "resourceSpans": [
            {
                "resource": {"attributes": resource_attrs},
                "scopeSpans": [
                    {"scope": {"name": scope, "version": version}, "spans": list(spans)}
                ],
            }
        ]
    }
