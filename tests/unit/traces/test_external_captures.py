"""The captured Langfuse SDK requests of the external corpus, converted as the api converts them.

Collected only when the corpus is there (``AXONAL_CONFORMANCE_DIR``, or
``../shared/conformance`` beside the repository). Every capture of an endpoint Axonal serves
is checked: batch ingestion, OTLP exports (as captured, and re-encoded as protobuf), scores
and the projects read. The prompt, dataset and media captures are of endpoints Axonal does
not serve.
"""

from __future__ import annotations

import asyncio
import base64
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from google.protobuf import json_format
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

from axonal_api.otlp_body import otlp_spans
from axonal_api.routes import public_ingest
from axonal_events.api_keys import KeyProject
from axonal_events.traces import ObservationLevel, ObservationType, ScoreDataType
from axonal_testing.conformance import checked, required_external_corpus
from axonal_traces import convert_batch, convert_export, convert_spans, experiment_id, score_record

CONFORMANCE = required_external_corpus()
CAPTURES = CONFORMANCE / "langfuse-sdk-captures"
ALL = sorted(CAPTURES.rglob("*.json"))
PROJECT = "proj-local-0001"
NOW = datetime(2026, 12, 1, tzinfo=UTC)
SERVED = {
    ("POST", "/api/public/ingestion"),
    ("POST", "/api/public/otel/v1/traces"),
    ("POST", "/api/public/scores"),
    ("GET", "/api/public/projects"),
}


def load(path: Path) -> dict[str, Any]:
    found: dict[str, Any] = json.loads(path.read_text())
    return found


def capture(name: str) -> dict[str, Any]:
    return load(next(CAPTURES.rglob(name)))


def served(path: Path) -> bool:
    request = load(path)
    return (request["method"], request["path"]) in SERVED


def _id(path: Path) -> str:
    return str(path.relative_to(CAPTURES))


def protobuf_of(export: dict[str, Any]) -> bytes:
    """The SDK's wire form of an OTLP-JSON export (ids as bytes)."""
    export = json.loads(json.dumps(export))
    for resource in export["resourceSpans"]:
        for scope in resource["scopeSpans"]:
            for span in scope["spans"]:
                for key in ("traceId", "spanId", "parentSpanId"):
                    if span.get(key):
                        span[key] = base64.b64encode(bytes.fromhex(span[key])).decode()
    return json_format.ParseDict(export, ExportTraceServiceRequest()).SerializeToString()


def keys(node: Any) -> Any:
    """The shape of a JSON value: its keys, recursively (lists by their first item)."""
    if isinstance(node, dict):
        return {k: keys(v) for k, v in node.items()}
    if isinstance(node, list):
        return [keys(node[0])] if node else []
    return None


def test_the_captures_are_there():
    assert len(ALL) >= 29
    assert len([p for p in ALL if served(p)]) >= 10


@pytest.mark.parametrize("path", [p for p in ALL if served(p)], ids=_id)
def test_every_served_capture_is_accepted(path: Path):
    request = load(path)
    route = (request["method"], request["path"])
    if route == ("POST", "/api/public/ingestion"):
        records = convert_batch(request["body"]["batch"], received_at=NOW)
        assert records.errors == []
        successes = [{"id": i, "status": 201} for i in records.accepted]
        assert successes == request["response"]["body"]["successes"]
    elif route == ("POST", "/api/public/otel/v1/traces"):
        export = request["body"]["otlp_json"]
        spans = sum(len(s["spans"]) for r in export["resourceSpans"] for s in r["scopeSpans"])
        from_json = convert_export(export, project_id=PROJECT)
        assert len(from_json.observations) == spans
        raw = protobuf_of(export)
        from_proto = convert_spans(otlp_spans(raw, "application/x-protobuf"), project_id=PROJECT)
        assert (from_proto.observations, from_proto.traces) == (
            from_json.observations,
            from_json.traces,
        )
    elif route == ("POST", "/api/public/scores"):
        body = request["body"]
        for item in body if isinstance(body, list) else [body]:
            score_record(item, event_time=NOW)
    else:  # GET /api/public/projects: the same shape as Langfuse's answer
        project = KeyProject(id=PROJECT, owner="acme", name="llm")
        ours = asyncio.run(public_ingest.projects(project))
        assert keys(ours) == keys(request["response"]["body"])
    checked("capture", _id(path))


def test_the_captured_v2_batch_is_accepted_whole():
    batch = capture("001_POST_api_public_ingestion.json")["body"]["batch"]
    records = convert_batch(batch, received_at=NOW)
    assert records.errors == []
    assert records.accepted == [e["id"] for e in batch]
    assert (len(records.traces), len(records.observations), len(records.scores)) == (2, 5, 2)
    update = records.observations[3]
    assert update.type is ObservationType.GENERATION
    assert update.usage_details == {"input": 10, "output": 1}
    assert update.cost_details == {"input": 1e-05, "output": 2e-06}
    assert records.observations[4].level is ObservationLevel.WARNING
    tone = records.scores[1]
    assert (tone.data_type, tone.string_value, tone.value) == (
        ScoreDataType.CATEGORICAL,
        "neutral",
        None,
    )


def test_the_sdk_capture_becomes_every_observation_type_with_its_fields():
    export = capture("013_POST_api_public_otel_v1_traces.json")["body"]["otlp_json"]
    records = convert_export(export, project_id=PROJECT)
    by_name = {o.name: o for o in records.observations}
    assert {o.type for o in records.observations} == {
        ObservationType.SPAN,
        ObservationType.RETRIEVER,
        ObservationType.TOOL,
        ObservationType.GENERATION,
        ObservationType.EMBEDDING,
        ObservationType.GUARDRAIL,
        ObservationType.CHAIN,
        ObservationType.AGENT,
        ObservationType.EVENT,
    }
    llm = by_name["llm-call"]
    assert llm.model == "gpt-4o-mini"
    assert llm.model_parameters == {"temperature": 0, "max_tokens": 64}
    assert llm.usage_details == {"input": 21, "output": 3, "cache_read_input_tokens": 5}
    assert llm.cost_details == {"input": 3.15e-05, "output": 1.8e-06}
    assert (llm.prompt_name, llm.prompt_version) == ("qa-prompt", 1)
    assert llm.input == [{"role": "user", "content": "Answer 2+2? briefly in en."}]
    assert by_name["retrieve"].input == "2+2?"  # plain strings stay strings
    assert by_name["retrieve"].metadata is not None
    assert by_name["retrieve"].metadata["k"] == 2
    event = by_name["cache-miss"]
    assert (event.level, event.status_message) == (ObservationLevel.WARNING, "miss")
    root = by_name["handle-request"]
    assert root.parent_observation_id is None
    assert (root.environment, root.release, root.version) == ("capture-test", "r-0.0.1", "app-1.2")
    full = [t for t in records.traces if t.timestamp is not None]
    assert len(full) == 1
    trace = full[0]
    assert trace.name == "qa-pipeline"
    assert (trace.user_id, trace.session_id) == ("user-42", "sess-7")
    assert trace.tags == ["capture", "demo"]
    assert trace.metadata == {"tenant": "acme"}
    assert (trace.input, trace.output) == ({"q": "2+2?"}, {"answer": "4"})
    assert trace.timestamp == root.start_time


def test_experiment_linkage_is_read_and_the_sdk_derived_id_matches_ours():
    export = capture("022_POST_api_public_otel_v1_traces.json")["body"]["otlp_json"]
    records = convert_export(export, project_id=PROJECT)
    linked = [o for o in records.observations if o.experiment]
    assert linked
    link = linked[0].experiment
    assert link is not None
    assert link.id == "ca36035f1c0e2a4c" == experiment_id(PROJECT, "ds-9091fb7df213", "run-1")
    assert link.dataset_id == "ds-9091fb7df213"
    assert link.metadata == {"model": "fake"}
    assert {o.environment for o in records.observations} >= {"sdk-experiment"}


def test_the_sdk_score_batch():
    body = capture("014_POST_api_public_scores.json")["body"]
    boolean, numeric, categorical, session = [score_record(b, event_time=NOW) for b in body]
    assert (boolean.data_type, boolean.value, boolean.string_value) == (
        ScoreDataType.BOOLEAN,
        1.0,
        "True",
    )
    assert boolean.observation_id == "8d8a15b218605bd4"
    assert (numeric.data_type, numeric.value, numeric.comment) == (
        ScoreDataType.NUMERIC,
        0.9,
        "close enough",
    )
    assert (categorical.string_value, categorical.value) == ("neutral", None)
    assert session.session_id == "sess-7"
    assert session.trace_id is None
    assert numeric.environment == "capture-test"
    assert numeric.timestamp == datetime(2026, 11, 29, 21, 11, 53, 404800, tzinfo=UTC)
