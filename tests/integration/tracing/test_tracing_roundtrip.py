"""Traces sent by ``axonal.tracing`` and by the plain OpenTelemetry SDK, read back from the api."""

from __future__ import annotations

import uuid

import pytest
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.trace import Status, StatusCode

from .conftest import RUN_UUID, TracedProject


def test_the_sdk_trace_reads_back_field_by_field(sdk_trace):
    trace = sdk_trace["stored"]
    printed = (sdk_trace["answer"], sdk_trace["parts"], sdk_trace["celsius"])
    assert printed == ("it is sunny ", 2, 21)
    assert trace["name"] == "plan"
    assert (trace["userId"], trace["sessionId"]) == ("user-1", "sess-1")
    assert sorted(trace["tags"]) == ["axonal", "sdk"]
    assert trace["metadata"] == {"tenant": "acme"}
    assert trace["runUuid"] == RUN_UUID
    assert trace["input"] == {"question": "weather in Paris?"}
    assert trace["output"]["answer"] == "it is sunny "

    by_name = {o["name"]: o for o in trace["observations"]}
    assert set(by_name) == {"plan", "lookup", "llm", "words", "chunks", "broken"}
    plan = by_name["plan"]
    assert (plan["id"], plan["type"], plan["parentObservationId"]) == (
        sdk_trace["plan_id"],
        "AGENT",
        None,
    )
    for child in ("lookup", "llm", "words", "chunks", "broken"):
        assert by_name[child]["parentObservationId"] == plan["id"], child
    lookup = by_name["lookup"]
    assert (lookup["type"], lookup["input"], lookup["output"]) == (
        "TOOL",
        {"city": "Paris"},
        {"city": "Paris", "celsius": 21},
    )
    assert by_name["words"]["output"] == "it is sunny "
    assert by_name["words"]["input"] == {"text": "it is sunny"}
    assert by_name["chunks"]["output"] == [{"chunk": 0}, {"chunk": 1}]
    broken = by_name["broken"]
    assert (broken["level"], broken["statusMessage"]) == ("ERROR", "tool timed out")
    assert broken["output"] is None

    llm = by_name["llm"]
    assert (llm["type"], llm["model"]) == ("GENERATION", "gpt-4o-mini")
    assert llm["modelParameters"] == {"temperature": 0}
    assert llm["input"] == [{"role": "user", "content": "weather in Paris?"}]
    assert llm["output"] == "sunny"
    assert llm["usageDetails"] == {"input": 1000, "output": 100, "total": 1100}
    assert llm["costDetails"]["total"] == pytest.approx(1000 * 0.15e-6 + 100 * 0.6e-6)
    assert llm["endTime"] >= llm["startTime"]

    scores = {s["name"]: s for s in trace["scores"]}
    correctness, helpful = scores["correctness"], scores["helpful"]
    assert (correctness["value"], correctness["comment"]) == (0.9, "fine")
    assert correctness["observationId"] is None
    assert correctness["traceId"] == trace["id"]
    assert (helpful["dataType"], helpful["value"]) == ("BOOLEAN", 1.0)
    assert helpful["observationId"] == plan["id"]


def test_the_sdk_trace_is_found_by_user_session_and_tag(traced: TracedProject, sdk_trace):
    trace_id = sdk_trace["trace_id"]
    listed = traced.http.get("/api/public/traces", params={"userId": "user-1", "tags": "sdk"})
    assert trace_id in [t["id"] for t in listed.json()["data"]]
    session = traced.http.get("/api/public/sessions/sess-1").json()
    assert trace_id in [t["id"] for t in session["traces"]]


def test_the_plain_opentelemetry_sdk_round_trip(traced: TracedProject):
    resource = Resource.create({"service.name": "chat-app", "axonal.run.uuid": RUN_UUID})
    provider = TracerProvider(resource=resource)
    exporter = OTLPSpanExporter(
        endpoint=f"{traced.api_url}/v1/traces",
        headers={"Authorization": traced.authorization},
    )
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracer = provider.get_tracer("my-app")
    session = uuid.uuid4().hex
    with tracer.start_as_current_span("handle", attributes={"session.id": session}) as root:
        with tracer.start_as_current_span(
            "chat gpt-4o",
            attributes={
                "gen_ai.operation.name": "chat",
                "gen_ai.request.model": "gpt-4o",
                "gen_ai.request.temperature": 0.2,
                "gen_ai.usage.input_tokens": 10,
                "gen_ai.usage.output_tokens": 5,
            },
        ):
            pass
        with tracer.start_as_current_span("fetch") as fetch:
            fetch.set_status(Status(StatusCode.ERROR, "upstream 503"))
        trace_id = format(root.get_span_context().trace_id, "032x")
    provider.shutdown()

    trace = traced.trace(trace_id, observations=3)
    assert (trace["name"], trace["sessionId"], trace["runUuid"]) == ("handle", session, RUN_UUID)
    by_name = {o["name"]: o for o in trace["observations"]}
    chat = by_name["chat gpt-4o"]
    assert (chat["type"], chat["model"]) == ("GENERATION", "gpt-4o")
    assert chat["usageDetails"] == {"input": 10, "output": 5, "total": 15}
    assert chat["modelParameters"]["temperature"] == 0.2
    assert chat["parentObservationId"] == by_name["handle"]["id"]
    assert chat["metadata"]["resourceAttributes"]["service.name"] == "chat-app"
    assert (by_name["fetch"]["level"], by_name["fetch"]["statusMessage"]) == (
        "ERROR",
        "upstream 503",
    )
