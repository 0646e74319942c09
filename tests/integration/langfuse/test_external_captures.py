"""The captured Langfuse SDK requests of the external corpus, sent to a real stack.

Collected only when the corpus is there (``AXONAL_CONFORMANCE_DIR``, or
``../shared/conformance`` beside the repository). Every captured write of an endpoint Axonal
serves (batch ingestion, OTLP exports, scores) is sent again, with new ids, and must get the
status the real server gave.
"""

from __future__ import annotations

import base64
import copy
import gzip
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from axonal_testing.conformance import checked, required_external_corpus

from .conftest import LangfuseServer, with_fresh_ids

CONFORMANCE = required_external_corpus()
CAPTURES = CONFORMANCE / "langfuse-sdk-captures"
WRITES = {"/api/public/ingestion", "/api/public/otel/v1/traces", "/api/public/scores"}


def load(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text())
    return found


def capture(name: str) -> dict[str, Any]:
    return load(next(CAPTURES.rglob(name)))


SENT = sorted(
    p for p in CAPTURES.rglob("*.json") if load(p)["method"] == "POST" and load(p)["path"] in WRITES
)


def _id(path: Path) -> str:
    return str(path.relative_to(CAPTURES))


def with_fresh_sessions(body: Any, fresh: dict[str, str] | None = None) -> Any:
    """``body`` with new session ids (``sessionId`` keys, ``session.id`` attributes), so that
    the captures' sessions do not add traces to the sessions other tests read."""
    fresh = {} if fresh is None else fresh
    if isinstance(body, list):
        return [with_fresh_sessions(item, fresh) for item in body]
    if not isinstance(body, dict):
        return body
    if body.get("key") == "session.id" and "stringValue" in body.get("value", {}):
        session = body["value"]["stringValue"]
        return {"key": "session.id", "value": {"stringValue": fresh.setdefault(session, _new())}}
    found = {k: with_fresh_sessions(v, fresh) for k, v in body.items()}
    if isinstance(found.get("sessionId"), str):
        found["sessionId"] = fresh.setdefault(found["sessionId"], _new())
    return found


def _new() -> str:
    return f"sess-{uuid.uuid4().hex[:12]}"


def with_new_trace_ids(export: dict[str, Any]) -> dict[str, Any]:
    export = copy.deepcopy(export)
    fresh: dict[str, str] = {}
    for resource in export["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                span["traceId"] = fresh.setdefault(span["traceId"], uuid.uuid4().hex)
    return export


def protobuf(export: dict[str, Any]) -> bytes:
    export = copy.deepcopy(export)
    for resource in export["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.ParseDict(export, ExportTraceServiceRequest()).SerializeToString()


def test_the_captured_writes_are_there():
    assert len(SENT) >= 8


@pytest.mark.parametrize("path", SENT, ids=_id)
def test_every_captured_write_gets_the_captured_status(langfuse: LangfuseServer, path: Path):
    request = with_fresh_sessions(load(path))
    expected = request["response"]["status"]
    if request["path"] == "/api/public/otel/v1/traces":
        export = with_new_trace_ids(request["body"]["otlp_json"])
        reply = langfuse.http.post(
            request["path"],
            content=gzip.compress(protobuf(export)),
            headers={
                "content-type": "application/x-protobuf",
                "content-encoding": "gzip",
                "x-langfuse-ingestion-version": "4",
            },
        )
    elif request["path"] == "/api/public/ingestion":
        reply = langfuse.http.post(request["path"], json=with_fresh_ids(request["body"]))
        assert [s["status"] for s in reply.json()["successes"]] == [
            s["status"] for s in request["response"]["body"]["successes"]
        ]
    else:
        body = request["body"]
        items = body if isinstance(body, list) else [body]
        fresh = [{**item, "id": uuid.uuid4().hex[:16]} for item in items]
        reply = langfuse.http.post(
            request["path"], json=fresh if isinstance(body, list) else fresh[0]
        )
    assert reply.status_code == expected, reply.text
    checked("capture", _id(path))


def test_the_captured_legacy_batch_reads_back(langfuse: LangfuseServer):
    body = with_fresh_ids(
        with_fresh_sessions(capture("001_POST_api_public_ingestion.json")["body"])
    )
    reply = langfuse.http.post("/api/public/ingestion", json=body)
    assert reply.status_code == 207
    trace_id = body["batch"][0]["body"]["id"]
    trace = langfuse.trace(trace_id, observations=3, scores=2)
    assert (trace["name"], trace["userId"], trace["output"]) == (
        "legacy-trace",
        "user-42",
        {"answer": "4"},
    )
    generation = next(o for o in trace["observations"] if o["type"] == "GENERATION")
    sent = {"input": 1e-05, "output": 2e-06}
    assert generation["costDetails"] == sent | {"total": 1e-05 + 2e-06}  # as sent, totalled
    assert generation["output"] == "4"


def test_the_captured_sdk_export_reads_back(langfuse: LangfuseServer):
    export = with_new_trace_ids(
        with_fresh_sessions(capture("013_POST_api_public_otel_v1_traces.json")["body"]["otlp_json"])
    )
    trace_id = export["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["traceId"]
    reply = langfuse.http.post(
        "/v1/traces",
        content=gzip.compress(protobuf(export)),
        headers={
            "content-type": "application/x-protobuf",
            "content-encoding": "gzip",
            "x-langfuse-ingestion-version": "4",
        },
    )
    assert reply.status_code == 200, reply.text
    trace = langfuse.trace(trace_id, observations=9)
    generation = next(o for o in trace["observations"] if o["type"] == "GENERATION")
    assert generation["usageDetails"]["input"] == 21
    assert generation["costDetails"] == {
        "input": 3.15e-05,
        "output": 1.8e-06,
        "total": 3.15e-05 + 1.8e-06,
    }
