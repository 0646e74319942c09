"""Bodies of the public ingestion endpoints: protobuf -> OTLP-JSON, gzip, limits; batching."""

from __future__ import annotations

import asyncio
import base64
import gzip
import inspect
import json
from datetime import UTC, datetime

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from starlette.requests import Request

from axonal_api import public_query
from axonal_api.otlp_body import BodyError, otlp_spans, read_body
from axonal_api.routes import public_read
from axonal_api.trace_publish import RecordRefused, RecordTooLarge, _batches
from axonal_events.api_keys import KeyProject
from axonal_events.trace_reads import (
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    Order,
    ValueCondition,
)
from axonal_events.traces import ObservationRecord, TraceBatch, TraceRecord
from axonal_testing.conformance import project_fixtures
from axonal_traces import OtlpFormatError, convert_export, convert_spans, wire

LANGFUSE = project_fixtures() / "langfuse"
OTLP_FIXTURES = sorted(LANGFUSE.glob("otel-*.json"))
#: Every kind of value, an event, an error status, a root span and a scope without a name.
RICH = {
    "resourceSpans": [
        {
            "resource": {"attributes": [{"key": "service.name", "value": {"stringValue": "x"}}]},
            "scopeSpans": [
                {
                    "scope": {},
                    "spans": [
                        {
                            "traceId": "0af7651916cd43dd8448eb211c80319c",
                            "spanId": "b7ad6b7169203331",
                            "name": "root",
                            "startTimeUnixNano": "1700000000000000000",
                            "endTimeUnixNano": "1700000001000000000",
                            "attributes": [
                                {"key": "n", "value": {"intValue": "7"}},
                                {"key": "f", "value": {"doubleValue": 0.5}},
                                {"key": "b", "value": {"boolValue": True}},
                                {"key": "raw", "value": {"bytesValue": "AAE="}},
                                {"key": "list", "value": {"arrayValue": {"values": [
                                    {"stringValue": "a"}, {"intValue": "1"}]}}},
                                {"key": "map", "value": {"kvlistValue": {"values": [
                                    {"key": "k", "value": {"stringValue": "v"}}]}}},
                                {"key": "empty", "value": {}},
                            ],
                            "events": [{
                                "timeUnixNano": "1700000000500000000", "name": "retry",
                                "attributes": [{"key": "try", "value": {"intValue": "2"}}],
                            }],
                            "status": {"code": "STATUS_CODE_ERROR", "message": "upstream 503"},
                        }
                    ],
                }
            ],
        }
    ]
}  # fmt: skip
PROJECT = KeyProject(id="p1", owner="acme", name="llm")
JSON = "application/json"


def protobuf_of(export: dict) -> bytes:
    """The SDK's wire form of an OTLP-JSON export (ids as bytes)."""
    export = json.loads(json.dumps(export))
    for resource in export["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.ParseDict(export, ExportTraceServiceRequest()).SerializeToString()


@pytest.mark.parametrize(
    "export",
    [RICH, *(json.loads(p.read_text())["body"] for p in OTLP_FIXTURES)],
    ids=["every-value-kind", *(p.stem for p in OTLP_FIXTURES)],
)
def test_a_protobuf_export_decodes_to_the_same_records_as_its_json(export):
    spans = otlp_spans(protobuf_of(export), "application/x-protobuf")
    from_proto = convert_spans(spans, project_id="p1")
    from_json = convert_export(export, project_id="p1")
    as_json = otlp_spans(json.dumps(export).encode(), JSON)
    assert convert_spans(as_json, project_id="p1") == from_json
    assert from_proto.observations == from_json.observations
    assert from_proto.traces == from_json.traces


def test_the_committed_protobuf_export_decodes_like_its_json():
    raw = (LANGFUSE / "otel-genai-export.pb").read_bytes()
    export = json.loads((LANGFUSE / "otel-genai-export.json").read_text())["body"]
    assert raw == protobuf_of(export)
    from_proto = convert_spans(otlp_spans(raw, "application/x-protobuf"), project_id="p1")
    from_json = convert_export(export, project_id="p1")
    assert len(from_proto.observations) == 4
    assert (from_proto.observations, from_proto.traces) == (
        from_json.observations,
        from_json.traces,
    )


@pytest.mark.parametrize(
    ("field", "value", "reason"),
    [
        ("traceId", "0" * 32, "traceId must be 32 hex digits"),
        ("spanId", "", "spanId must be 16 hex digits"),
        ("parentSpanId", "abcd", "parentSpanId must be 16 hex digits"),
    ],
)
def test_a_protobuf_span_with_a_bad_id_refuses_the_export_naming_it(field, value, reason):
    export = json.loads(json.dumps(RICH))
    export["resourceSpans"][0]["scopeSpans"][0]["spans"][0][field] = value
    raw = protobuf_of(export)
    with pytest.raises(OtlpFormatError, match=rf"scopeSpans\[0\]\.spans\[0\]: {reason}"):
        otlp_spans(raw, "application/x-protobuf")


@pytest.mark.parametrize(
    ("raw", "content_type", "status"),
    [
        (b"\xff\xff", "application/x-protobuf", 400),
        (b"{", "application/json", 400),
        (b"{}", "text/plain", 415),
    ],
)
def test_bad_bodies(raw, content_type, status):
    with pytest.raises(BodyError) as caught:
        otlp_spans(raw, content_type)
    assert caught.value.status == status


def test_records_are_cut_into_batches_under_the_limit():
    now = datetime.now(UTC)
    records = [
        ObservationRecord(id=f"o{i}", trace_id="t", event_time=now, input="x" * 1000)
        for i in range(50)
    ]
    messages = _batches(PROJECT, [TraceRecord(id="t", event_time=now), *records], 10_000)
    assert all(len(m) <= 10_000 for m in messages)
    batches = [TraceBatch.model_validate_json(m) for m in messages]  # what the consumer reads
    assert len(batches) > 1
    assert [o for b in batches for o in b.observations] == records
    assert batches[0].traces[0].id == "t"
    assert {(b.project, b.project_id) for b in batches} == {("acme/llm", PROJECT.id)}
    with pytest.raises(RecordTooLarge):
        _batches(
            PROJECT,
            [ObservationRecord(id="big", trace_id="t", event_time=now, input="x" * 20_000)],
            10_000,
        )


def test_span_records_go_out_as_the_contract_reads_them_or_not_at_all():
    records = convert_export(RICH, project_id=PROJECT.id)
    (message,) = _batches(PROJECT, [*records.traces, *records.observations], 1 << 20)
    batch = TraceBatch.model_validate_json(message)  # what the tracking service reads
    assert [o.id for o in batch.observations] == [o.id for o in records.observations]
    assert batch.observations[0].model_dump(exclude_none=True, mode="json") == json.loads(
        wire.encode(records.observations[0])
    )
    long_id = "x" * 300
    export = json.loads(json.dumps(RICH))
    export["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"].append(
        {"key": "langfuse.experiment.id", "value": {"stringValue": long_id}}
    )
    refused = convert_export(export, project_id=PROJECT.id)
    with pytest.raises(
        RecordRefused, match=r"length <= 256 - at `\$\.observations\[0\]\.experiment\.id`"
    ):
        _batches(PROJECT, [*refused.traces, *refused.observations], 1 << 20)


def test_gzip_bodies_are_read_within_the_limit():
    def request(body: bytes, **headers: str) -> Request:
        async def receive():
            return {"type": "http.request", "body": body, "more_body": False}

        raw_headers = [(k.replace("_", "-").encode(), v.encode()) for k, v in headers.items()]
        return Request({"type": "http", "headers": raw_headers}, receive)

    packed = gzip.compress(b"a" * 5000)
    assert asyncio.run(read_body(request(packed, content_encoding="gzip"), 10_000)) == b"a" * 5000
    for body, headers in ((packed, {"content_encoding": "gzip"}), (b"a" * 5000, {})):
        with pytest.raises(BodyError) as caught:
            asyncio.run(read_body(request(body, **headers), 1000))
        assert caught.value.status == 413
    with pytest.raises(BodyError) as caught:
        asyncio.run(read_body(request(b"not gzip", content_encoding="gzip"), 1000))
    assert caught.value.status == 400


@pytest.mark.parametrize(
    ("route", "model", "renames"),
    [
        (public_read.list_traces, ListTraces, {"orderBy": "order"}),
        (
            public_read.list_observations,
            ListObservations,
            {"fromStartTime": "from_timestamp", "toStartTime": "to_timestamp"},
        ),
        (
            public_read.list_observations_v1,
            ListObservations,
            {"fromStartTime": "from_timestamp", "toStartTime": "to_timestamp"},
        ),
        (public_read.list_sessions, ListSessions, {}),
        (public_read.list_scores_v2, ListScores, {"scoreIds": "id", "value": "value_is"}),
    ],
)
def test_every_query_parameter_of_a_read_route_is_a_field_of_its_query(route, model, renames):
    names = [
        n
        for n in inspect.signature(route).parameters
        # ``operator`` is read with ``value`` into one condition.
        if n not in ("gw", "project", "operator") and n not in public_query.SHAPING
    ]
    values = {
        "environment": ["e"],
        "tags": ["t"],
        "id": ["i"],
        "scoreIds": ["i"],
        "type": "SPAN",
        "level": "ERROR",
        "source": "API",
        "dataType": "NUMERIC",
        "page": 2,
        "limit": 3,
        "valueMin": 0.5,
        "isRootObservation": True,
        "valueMax": 1.5,
        "fromTimestamp": datetime.now(UTC),
        "toTimestamp": datetime.now(UTC),
        "fromStartTime": datetime.now(UTC),
        "toStartTime": datetime.now(UTC),
        "orderBy": Order(field="name"),
        "value": ValueCondition(operator=">", value=1.0),
        "traceTags": ["t"],
    }
    params = {name: values.get(name, "x") for name in names}
    query = public_query.query_of(model, PROJECT, params | {"gw": None, "project": None}, **renames)
    assert query.project_id == PROJECT.id
    assert len(query.model_fields_set) == len(names) + 1
