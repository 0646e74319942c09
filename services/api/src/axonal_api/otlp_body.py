"""Request bodies of the public ingestion endpoints: size limits, gzip, OTLP spans.

Bodies are read with a hard cap (compressed and decompressed, so a gzip bomb stops early).
An OTLP export, protobuf or JSON, becomes the same checked spans (see
:mod:`axonal_traces.otlp_spans`), so one converter serves both encodings; a protobuf message
is walked directly, without building its JSON form first.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Iterable
from typing import Any

from fastapi import Request
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.trace.v1.trace_pb2 import Span

from axonal_traces.otlp_attributes import OtlpFormatError
from axonal_traces.otlp_spans import OtlpSpan, ScopeContext, span_times, spans_of

__all__ = ["BodyError", "json_body", "otlp_spans", "read_body"]


class BodyError(Exception):
    """A body that cannot be read: ``status`` (400, 413, 415) and why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


async def read_body(request: Request, limit: int) -> bytes:
    """The body, gunzipped when ``Content-Encoding: gzip``; 413 beyond ``limit`` bytes."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise BodyError(413, f"the request body is larger than {limit} bytes")
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise BodyError(413, f"the request body is larger than {limit} bytes")
        chunks.append(chunk)
    raw = b"".join(chunks)
    if request.headers.get("content-encoding", "").lower() != "gzip":
        return raw
    inflater = zlib.decompressobj(wbits=16 + zlib.MAX_WBITS)
    try:
        body = inflater.decompress(raw, limit + 1)
    except zlib.error as exc:
        raise BodyError(400, f"the body is not valid gzip: {exc}") from None
    if len(body) > limit or inflater.unconsumed_tail:
        raise BodyError(413, f"the decompressed body is larger than {limit} bytes")
    return body


def json_body(raw: bytes) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise BodyError(400, f"the body is not valid JSON: {exc}") from None


def _value(value: AnyValue) -> Any:
    """An ``AnyValue`` as a plain value, as :func:`axonal_traces.otlp_attributes.decode_value`
    makes of its JSON form (bytes as hex)."""
    kind = value.WhichOneof("value")
    if kind == "string_value":  # by far the most common
        return value.string_value
    if kind is None:
        return None
    if kind == "array_value":
        return [_value(v) for v in value.array_value.values]
    if kind == "kvlist_value":
        return _attributes(value.kvlist_value.values)
    if kind == "bytes_value":
        return value.bytes_value.hex()
    return getattr(value, kind)


def _attributes(items: Iterable[KeyValue]) -> dict[str, Any]:
    return {item.key: _value(item.value) for item in items}


def _id(raw: bytes, name: str, digits: int, where: str) -> str:
    """``raw`` in hex, as OTLP-JSON has it: ``digits`` long, not all zero."""
    if len(raw) * 2 != digits or raw.count(0) == len(raw):
        raise OtlpFormatError(f"{where}: {name} must be {digits} hex digits, got {raw.hex()!r}")
    return raw.hex()


def _span(context: ScopeContext, span: Span, where: str) -> OtlpSpan:
    start, end = span_times(span.start_time_unix_nano, span.end_time_unix_nano, where)
    return OtlpSpan(
        context=context,
        trace_id=_id(span.trace_id, "traceId", 32, where),
        span_id=_id(span.span_id, "spanId", 16, where),
        parent_span_id=_id(span.parent_span_id, "parentSpanId", 16, where)
        if span.parent_span_id
        else None,
        name=span.name,
        start=start,
        end=end,
        attributes=_attributes(span.attributes),
        events=[{"name": e.name, "attributes": _attributes(e.attributes)} for e in span.events],
        status_code=span.status.code,
        status_message=span.status.message,
    )


def _protobuf_spans(message: ExportTraceServiceRequest) -> list[OtlpSpan]:
    found = []
    for r, rs in enumerate(message.resource_spans):
        resource = _attributes(rs.resource.attributes)
        for s, ss in enumerate(rs.scope_spans):
            where = f"resourceSpans[{r}].scopeSpans[{s}].spans"
            scope = {
                "name": ss.scope.name or None,
                "version": ss.scope.version or None,
                "attributes": _attributes(ss.scope.attributes),
            }
            context = ScopeContext(resource, ss.scope.name, ss.scope.version, scope)
            found += [_span(context, span, f"{where}[{i}]") for i, span in enumerate(ss.spans)]
    return found


def otlp_spans(raw: bytes, content_type: str) -> list[OtlpSpan]:
    """The checked spans of a protobuf or JSON export; 400/415 when it is neither
    (:class:`BodyError`), :class:`OtlpFormatError` when a span is malformed."""
    kind = content_type.split(";", maxsplit=1)[0].strip().lower()
    if kind == "application/json":
        return spans_of(json_body(raw))
    if kind != "application/x-protobuf":
        raise BodyError(415, "OTLP exports are application/x-protobuf or application/json")
    message = ExportTraceServiceRequest()
    try:
        message.ParseFromString(raw)
    except DecodeError as exc:
        raise BodyError(400, f"the body is not an OTLP ExportTraceServiceRequest: {exc}") from None
    return _protobuf_spans(message)
