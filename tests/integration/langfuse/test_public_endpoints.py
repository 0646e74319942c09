"""The public OTLP and score endpoints over HTTP: encodings, refusals, per-item answers."""

from __future__ import annotations

import base64
import copy
import gzip
import uuid

from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from axonal_testing.waiting import wait_for_sync

from .conftest import LangfuseServer, fixture, with_fresh_ids

PROTOBUF = {"content-type": "application/x-protobuf"}


def export_with_new_ids() -> tuple[dict, str]:
    export = copy.deepcopy(fixture("otel-sdk-export.json")["body"])
    trace_id = uuid.uuid4().hex
    for span in export["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        span["traceId"] = trace_id
    return export, trace_id


def protobuf(export: dict) -> bytes:
    export = copy.deepcopy(export)
    for span in export["resourceSpans"][0]["scopeSpans"][0]["spans"]:
        for key in ("traceId", "spanId", "parentSpanId"):
            if span.get(key):
                span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.ParseDict(export, ExportTraceServiceRequest()).SerializeToString()


def test_gzipped_protobuf_at_the_collector_path(langfuse: LangfuseServer):
    export, trace_id = export_with_new_ids()
    reply = langfuse.http.post(
        "/v1/traces",
        content=gzip.compress(protobuf(export)),
        headers={**PROTOBUF, "content-encoding": "gzip", "x-langfuse-ingestion-version": "4"},
    )
    assert reply.status_code == 200, reply.text
    assert reply.headers["content-type"] == "application/x-protobuf"
    trace = langfuse.trace(trace_id, observations=9)
    generation = next(o for o in trace["observations"] if o["type"] == "GENERATION")
    assert generation["usageDetails"]["input"] == 42
    assert generation["costDetails"] == {
        "input": 6.3e-06,
        "output": 5.4e-06,
        "total": 6.3e-06 + 5.4e-06,
    }


def test_otlp_refusals(langfuse: LangfuseServer):
    export, _ = export_with_new_ids()
    export["resourceSpans"][0]["scopeSpans"][0]["spans"][3]["spanId"] = "zz"
    bad = langfuse.http.post("/api/public/otel/v1/traces", json=export)
    assert bad.status_code == 400
    assert "spanId" in bad.json()["message"]
    empty = langfuse.http.post("/api/public/otel/v1/traces", json={"resourceSpans": []})
    assert empty.status_code == 200
    text = langfuse.http.post(
        "/api/public/otel/v1/traces", content=b"x", headers={"content-type": "text/plain"}
    )
    assert text.status_code == 415
    garbage = langfuse.http.post(
        "/api/public/otel/v1/traces", content=b"\xff\xff", headers=PROTOBUF
    )
    assert garbage.status_code == 400
    export, _ = export_with_new_ids()  # a value the contract refuses, found once encoded
    export["resourceSpans"][0]["scopeSpans"][0]["spans"][0]["attributes"].append(
        {"key": "langfuse.experiment.id", "value": {"stringValue": "x" * 300}}
    )
    refused = langfuse.http.post("/api/public/otel/v1/traces", json=export)
    assert refused.status_code == 400
    assert "experiment.id" in refused.json()["message"]
    newer = langfuse.http.post(
        "/api/public/otel/v1/traces",
        json={"resourceSpans": []},
        headers={"x-langfuse-ingestion-version": "5"},
    )
    assert newer.status_code == 400
    huge = langfuse.http.post(
        "/api/public/otel/v1/traces", content=b"0" * (33 * 2**20), headers=PROTOBUF
    )
    assert huge.status_code == 413
    assert set(huge.json()) == {"message", "error"}


def test_scores_one_object_or_an_array(langfuse: LangfuseServer):
    trace_id = uuid.uuid4().hex
    one = langfuse.http.post(
        "/api/public/scores", json={"traceId": trace_id, "name": "q", "value": 1}
    )
    assert one.status_code == 200
    score_id = one.json()["id"]
    retried = langfuse.http.post(
        "/api/public/scores", json={"traceId": trace_id, "name": "q", "value": 1}
    )
    assert retried.json()["id"] == score_id  # a retried POST names the same score
    batch = [
        {"traceId": trace_id, "name": "ok", "value": 0.5},
        {"traceId": trace_id, "name": "bad", "value": "x", "dataType": "NUMERIC"},
    ]
    partial = langfuse.http.post("/api/public/scores", json=batch)
    assert partial.status_code == 207
    assert partial.json()["accepted"] == 1
    assert partial.json()["rejected"] == 1
    assert langfuse.http.post("/api/public/scores", json=batch[:1]).json() == {
        "message": "Accepted"
    }
    invalid = langfuse.http.post("/api/public/scores", json={"name": "no target", "value": 1})
    assert invalid.status_code == 400

    def stored():
        found = langfuse.get("/api/public/v2/scores", traceId=trace_id)["data"]
        return found if len(found) >= 2 else None

    scores = wait_for_sync(stored, timeout=20, message="scores stored")
    assert score_id in {s["id"] for s in scores}


def test_keys_are_listed_and_a_revoked_key_is_refused(langfuse: LangfuseServer):
    stack = langfuse.stack
    made = stack.cli("keys", "create", "-p", "acme/llm", "--note", "to revoke")
    assert made.returncode == 0, made.stderr
    assert "LANGFUSE_SECRET_KEY=sk-ax-" in made.stdout
    public = next(
        line.split("=", 1)[1] for line in made.stdout.splitlines() if "LANGFUSE_PUBLIC_KEY=" in line
    )
    secret = next(
        line.split("=", 1)[1] for line in made.stdout.splitlines() if "LANGFUSE_SECRET_KEY=" in line
    )
    listed = stack.cli("keys", "ls", "-p", "acme/llm", "--json")
    assert public in listed.stdout
    assert secret not in listed.stdout
    revoked = stack.cli("keys", "rm", public, "-p", "acme/llm")
    assert revoked.returncode == 0, revoked.stderr
    reply = langfuse.http.get("/api/public/projects", auth=(public, secret))
    assert reply.status_code == 401


def test_health_needs_no_key(langfuse: LangfuseServer):
    reply = langfuse.http.get("/api/public/health", auth=None)
    assert reply.status_code == 200
    assert reply.json()["status"] == "OK"


def test_the_score_array_fixture_is_accepted(langfuse: LangfuseServer):
    request = fixture("scores.json")
    trace_id = uuid.uuid4().hex
    body = [
        {**score, "id": uuid.uuid4().hex[:16], "traceId": trace_id} if "traceId" in score else score
        for score in request["body"]
    ]
    reply = langfuse.http.post(request["path"], json=body)
    assert reply.status_code == request["response"]["status"]
    assert reply.json() == request["response"]["body"]

    def stored():
        found = langfuse.get("/api/public/v3/scores", traceId=trace_id)["data"]
        return found if len(found) >= 3 else None

    scores = wait_for_sync(stored, timeout=20, message="scores stored")
    assert {s["name"]: s["dataType"] for s in scores} == {
        "fast-enough": "BOOLEAN",
        "helpfulness": "NUMERIC",
        "sentiment": "CATEGORICAL",
    }
    assert {s["name"]: s["value"] for s in scores}["sentiment"] == "positive"


def _reads(reads: list[dict], **names: str) -> list[dict]:
    """The read fixtures with ``{traceId}``-style placeholders filled in."""

    def fill(text: str) -> str:
        return text.format(**names)

    return [
        read | {"path": fill(read["path"])}
        | {"query": {k: fill(v) for k, v in (read.get("query") or {}).items()}}
        for read in reads
    ]  # fmt: skip


def test_public_reads_have_the_shapes_a_langfuse_client_reads(langfuse: LangfuseServer):
    body = with_fresh_ids(fixture("ingestion-batch.json")["body"])
    trace_id = body["batch"][0]["body"]["id"]
    session_id = f"sess-{uuid.uuid4().hex[:8]}"
    for event in body["batch"]:
        if event["type"] == "trace-create" and "sessionId" in event["body"]:
            event["body"]["sessionId"] = session_id
    assert langfuse.http.post("/api/public/ingestion", json=body).status_code == 207
    langfuse.trace(trace_id, observations=3, scores=2)
    reads = _reads(fixture("public-reads.json")["reads"], traceId=trace_id, sessionId=session_id)
    for read in reads:
        reply = langfuse.get(read["path"], **read["query"])
        assert set(read["keys"]) <= set(reply), (read["path"], set(read["keys"]) - set(reply))
        for key, wanted in read.get("items", {}).items():
            assert reply[key], (read["path"], key)
            for item in reply[key]:
                assert set(wanted) <= set(item), (read["path"], key, set(wanted) - set(item))
        for key, wanted in read.get("fields", {}).items():
            assert set(wanted) <= set(reply[key]), (
                read["path"],
                key,
                set(wanted) - set(reply[key]),
            )
