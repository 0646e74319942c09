"""Request bodies of the public ingestion endpoints: size limits, gzip, OTLP protobuf -> JSON.

Bodies are read with a hard cap (compressed and decompressed, so a gzip bomb stops early).
An OTLP protobuf export becomes the OTLP-JSON dict shape (ids as hex), so one converter serves
both encodings.
"""

from __future__ import annotations

import base64
import json
import zlib
from typing import Any

from fastapi import Request
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

__all__ = ["BodyError", "json_body", "otlp_export", "read_body"]

_ID_FIELDS = ("traceId", "spanId", "parentSpanId")


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


def _hex_ids(value: Any) -> None:
    """Protobuf JSON carries bytes as base64; OTLP-JSON carries ids as hex."""
    for resource in value.get("resourceSpans", []):
        for scope in resource.get("scopeSpans", []):
            for span in scope.get("spans", []):
                for key in _ID_FIELDS:
                    if span.get(key):
                        span[key] = base64.b64decode(span[key]).hex()


def otlp_export(raw: bytes, content_type: str) -> Any:
    """The OTLP-JSON dict of a protobuf or JSON export; 400/415 when it is neither."""
    kind = content_type.split(";", maxsplit=1)[0].strip().lower()
    if kind == "application/json":
        return json_body(raw)
    if kind != "application/x-protobuf":
        raise BodyError(415, "OTLP exports are application/x-protobuf or application/json")
    message = ExportTraceServiceRequest()
    try:
        message.ParseFromString(raw)
    except DecodeError as exc:
        raise BodyError(400, f"the body is not an OTLP ExportTraceServiceRequest: {exc}") from None
    export = json_format.MessageToDict(message)
    _hex_ids(export)
    return export
