"""The spans of an OTLP trace export, checked and with their attributes decoded.

Both encodings of an export end here: OTLP-JSON through :func:`spans_of`, protobuf through the
api's direct walk of the message. The export is checked whole first: one bad span id or time
refuses it all (:class:`OtlpFormatError`, naming the span).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import msgspec

from axonal_traces.otlp_attributes import OtlpFormatError, attributes
from axonal_traces.values import is_hex_id, nanos_to_datetime

__all__ = ["OtlpSpan", "ScopeContext", "span_times", "spans_of"]


class ScopeContext(msgspec.Struct, frozen=True):
    """The resource and instrumentation scope that spans share."""

    resource: dict[str, Any]
    scope_name: str
    scope_version: str
    #: ``{"name", "version", "attributes"}``, as observation metadata keeps it
    scope: dict[str, Any]


class OtlpSpan(msgspec.Struct, frozen=True):
    """One span: ids in lowercase hex, times as aware datetimes, attributes as values."""

    context: ScopeContext
    trace_id: str
    span_id: str
    parent_span_id: str | None
    name: str
    start: datetime | None
    end: datetime | None
    attributes: dict[str, Any]
    #: ``{"name", "attributes"}`` per span event
    events: list[dict[str, Any]]
    #: OTLP status code as sent (2, "2" or "STATUS_CODE_ERROR" for an error)
    status_code: Any
    status_message: str


def _array(value: Any, where: str) -> list[Any]:
    if value is None:
        return []
    if not isinstance(value, list):
        raise OtlpFormatError(f"{where} must be an array")
    return value


def span_times(start: Any, end: Any, where: str) -> tuple[datetime | None, datetime | None]:
    """A span's ``*UnixNano`` times (ints or decimal strings) as datetimes."""
    times = []
    for key, value in (("startTimeUnixNano", start), ("endTimeUnixNano", end)):
        try:
            times.append(nanos_to_datetime(value))
        except (TypeError, ValueError, OverflowError):
            raise OtlpFormatError(f"{where}: {key} is not a time in nanoseconds") from None
    return times[0], times[1]


def _events(span: dict[str, Any], where: str) -> list[dict[str, Any]]:
    return [
        {"name": event.get("name"), "attributes": attributes(event.get("attributes"), where)}
        for event in _array(span.get("events"), f"{where}.events")
        if isinstance(event, dict)
    ]


def _span(context: ScopeContext, span: Any, where: str) -> OtlpSpan:
    if not isinstance(span, dict):
        raise OtlpFormatError(f"{where} must be an object")
    trace_id, span_id = span.get("traceId"), span.get("spanId")
    if not is_hex_id(trace_id, 32):
        raise OtlpFormatError(f"{where}: traceId must be 32 hex digits, got {trace_id!r}")
    if not is_hex_id(span_id, 16):
        raise OtlpFormatError(f"{where}: spanId must be 16 hex digits, got {span_id!r}")
    parent = span.get("parentSpanId")
    if parent and not is_hex_id(parent, 16):
        raise OtlpFormatError(f"{where}: parentSpanId must be 16 hex digits, got {parent!r}")
    start, end = span_times(span.get("startTimeUnixNano"), span.get("endTimeUnixNano"), where)
    status = span.get("status") or {}
    return OtlpSpan(
        context=context,
        trace_id=str(trace_id),
        span_id=str(span_id),
        parent_span_id=parent or None,
        name=str(span.get("name") or ""),
        start=start,
        end=end,
        attributes=attributes(_array(span.get("attributes"), f"{where}.attributes"), where),
        events=_events(span, where),
        status_code=status.get("code"),
        status_message=str(status.get("message") or ""),
    )


def spans_of(export: Any) -> list[OtlpSpan]:
    """Every span of an OTLP-JSON export, in order, after checking the whole export."""
    if not isinstance(export, dict):
        raise OtlpFormatError("the export must be a JSON object")
    found = []
    for r, resource_spans in enumerate(_array(export.get("resourceSpans"), "resourceSpans")):
        where = f"resourceSpans[{r}]"
        if not isinstance(resource_spans, dict):
            raise OtlpFormatError(f"{where} must be an object")
        resource = attributes((resource_spans.get("resource") or {}).get("attributes"), where)
        for s, scope_spans in enumerate(_array(resource_spans.get("scopeSpans"), where)):
            inner = f"{where}.scopeSpans[{s}]"
            if not isinstance(scope_spans, dict):
                raise OtlpFormatError(f"{inner} must be an object")
            scope = scope_spans.get("scope") or {}
            context = ScopeContext(
                resource=resource,
                scope_name=str(scope.get("name") or ""),
                scope_version=str(scope.get("version") or ""),
                scope={
                    "name": scope.get("name"),
                    "version": scope.get("version"),
                    "attributes": attributes(scope.get("attributes"), inner),
                },
            )
            spans = _array(scope_spans.get("spans"), f"{inner}.spans")
            found += [_span(context, span, f"{inner}.spans[{i}]") for i, span in enumerate(spans)]
    return found
