"""LLM tracing in-process: the spans ``@observe`` and the context managers make, and their
attributes, read from OpenTelemetry's in-memory exporter; scores and export failures against a
small local HTTP server."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from opentelemetry.sdk.trace import ReadableSpan
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from axonal import tracing
from axonal._trace_attrs import arguments, encode, observation_attributes, trace_attributes


@pytest.fixture
def exported(monkeypatch) -> Iterator[InMemorySpanExporter]:
    monkeypatch.setenv("AXONAL_RUN_UUID", "a" * 32)
    exporter = InMemorySpanExporter()
    tracing.configure(exporter=exporter, environment="test", release="r1")
    try:
        yield exporter
    finally:
        tracing.shutdown()


def spans(exporter: InMemorySpanExporter) -> dict[str, ReadableSpan]:
    tracing.flush()
    return {span.name: span for span in exporter.get_finished_spans()}


def attr(span: ReadableSpan, key: str) -> Any:
    value = (span.attributes or {})[key]
    encoded = ("input", "output", "details", "metadata", "parameters")
    return json.loads(value) if key.endswith(encoded) else value


def parent_of(span: ReadableSpan) -> int | None:
    return span.parent.span_id if span.parent else None


def test_attributes_use_the_keys_the_server_reads():
    found = observation_attributes(
        as_type="GENERATION",
        input="4",
        model="gpt-4o",
        usage_details={"input": 3},
        level="warning",
    )
    assert found == {
        "langfuse.observation.type": "generation",
        "langfuse.observation.input": '"4"',  # a string stays a string once decoded
        "langfuse.observation.model.name": "gpt-4o",
        "langfuse.observation.usage_details": '{"input":3}',
        "langfuse.observation.level": "WARNING",
    }
    assert trace_attributes(user_id="u", session_id="s", tags=["a", "b"], public=True) == {
        "user.id": "u",
        "session.id": "s",
        "langfuse.trace.tags": ["a", "b"],
        "langfuse.trace.public": True,
    }
    with pytest.raises(ValueError, match="level"):
        observation_attributes(level="loud")


def test_inputs_are_bound_arguments_without_self_and_anything_encodes():
    class Agent:
        def run(self, question: str, *, temperature: float = 0.0) -> None: ...

    assert arguments(Agent.run, (Agent(), "2+2?"), {"temperature": 0.5}) == {
        "question": "2+2?",
        "temperature": 0.5,
    }
    assert arguments(Agent.run, (), {}) == {"args": [], "kwargs": {}}
    circular: list[Any] = []
    circular.append(circular)
    assert json.loads(encode(circular)) == "[[...]]"
    assert json.loads(encode({"when": {1, 2}, "raw": b"abc", "obj": object})) == {
        "when": [1, 2],
        "raw": "<3 bytes>",
        "obj": "<class 'object'>",
    }


def test_nested_sync_and_async_calls_make_nested_spans(exported):
    @tracing.observe
    def retrieve(query: str) -> list[str]:
        return [f"doc about {query}"]

    @tracing.observe(name="answer", as_type="agent")
    async def answer(question: str) -> str:
        docs = retrieve(question)
        tracing.update_current_trace(user_id="u1", session_id="s1", tags=["t"], name="qa")
        return f"{len(docs)} doc"

    assert asyncio.run(answer("cats")) == "1 doc"
    found = spans(exported)
    root, child = found["answer"], found["retrieve"]
    assert parent_of(child) == root.context.span_id
    assert root.parent is None
    assert attr(root, "langfuse.observation.type") == "agent"
    assert attr(root, "langfuse.observation.input") == {"question": "cats"}
    assert attr(root, "langfuse.observation.output") == "1 doc"
    assert attr(child, "langfuse.observation.output") == ["doc about cats"]
    assert (attr(root, "user.id"), attr(root, "session.id")) == ("u1", "s1")
    assert (attr(root, "langfuse.trace.name"), attr(root, "langfuse.trace.tags")) == ("qa", ("t",))
    resource = root.resource.attributes
    assert resource["axonal.run.uuid"] == "a" * 32
    assert (resource["langfuse.environment"], resource["langfuse.release"]) == ("test", "r1")


def test_a_generator_span_ends_with_the_generator_and_holds_what_it_yielded(exported):
    @tracing.observe
    def inner() -> int:
        return 1

    @tracing.observe(capture_input=False)
    def tokens(n: int) -> Iterator[str]:
        for i in range(n):
            inner()
            yield f"t{i} "

    @tracing.observe
    def caller() -> str:
        stream = tokens(2)
        tracing.update_current_span(metadata={"k": "v"})  # the caller's span, between items
        return "".join(stream)

    assert caller() == "t0 t1 "
    found = spans(exported)
    assert attr(found["tokens"], "langfuse.observation.output") == "t0 t1 "
    assert "langfuse.observation.input" not in (found["tokens"].attributes or {})
    assert parent_of(found["tokens"]) == found["caller"].context.span_id
    assert parent_of(found["inner"]) == found["tokens"].context.span_id
    assert attr(found["caller"], "langfuse.observation.metadata") == {"k": "v"}


def test_an_async_generator_and_a_closed_generator(exported):
    @tracing.observe
    async def chunks() -> Any:
        for i in range(3):
            yield {"i": i}

    @tracing.observe
    def endless() -> Iterator[int]:
        i = 0
        while True:
            yield i
            i += 1

    async def consume() -> list[Any]:
        return [chunk async for chunk in chunks()]

    assert asyncio.run(consume()) == [{"i": 0}, {"i": 1}, {"i": 2}]
    stream = endless()
    assert [next(stream), next(stream)] == [0, 1]
    stream.close()
    found = spans(exported)
    assert attr(found["chunks"], "langfuse.observation.output") == [{"i": 0}, {"i": 1}, {"i": 2}]
    assert attr(found["endless"], "langfuse.observation.output") == [0, 1]
    assert found["endless"].status.status_code is StatusCode.UNSET


def test_an_exception_fails_the_span_and_propagates(exported):
    @tracing.observe
    def broken() -> None:
        raise RuntimeError("model unavailable")

    @tracing.observe
    def broken_stream() -> Iterator[int]:
        yield 1
        raise ValueError("cut")

    with pytest.raises(RuntimeError, match="model unavailable"):
        broken()
    with pytest.raises(ValueError, match="cut"):
        list(broken_stream())
    found = spans(exported)
    span = found["broken"]
    assert span.status.status_code is StatusCode.ERROR
    assert span.status.description == "model unavailable"
    assert attr(span, "langfuse.observation.level") == "ERROR"
    assert attr(span, "langfuse.observation.status_message") == "model unavailable"
    assert [event.name for event in span.events] == ["exception"]
    assert attr(found["broken_stream"], "langfuse.observation.level") == "ERROR"
    assert attr(found["broken_stream"], "langfuse.observation.output") == [1]


def test_context_managers_for_spans_and_generations(exported):
    with tracing.start_as_current_span("pipeline", input={"q": 1}) as root:
        with tracing.start_generation(
            "llm", model="gpt-4o-mini", model_parameters={"temperature": 0}, input="hi"
        ) as generation:
            generation.update(
                output="hello", usage_details={"input": 3, "output": 2}, cost_details={"total": 1.5}
            )
        root.update(output={"a": 1}, level="DEBUG")
    found = spans(exported)
    llm = found["llm"]
    assert attr(llm, "langfuse.observation.type") == "generation"
    assert attr(llm, "langfuse.observation.model.name") == "gpt-4o-mini"
    assert attr(llm, "langfuse.observation.model.parameters") == {"temperature": 0}
    assert attr(llm, "langfuse.observation.usage_details") == {"input": 3, "output": 2}
    assert attr(llm, "langfuse.observation.cost_details") == {"total": 1.5}
    assert parent_of(llm) == found["pipeline"].context.span_id
    assert (generation.trace_id, generation.id) == (
        format(llm.context.trace_id, "032x"),
        format(llm.context.span_id, "016x"),
    )
    assert attr(found["pipeline"], "langfuse.observation.level") == "DEBUG"


def test_updates_outside_a_span_are_ignored(exported, capsys):
    tracing.update_current_trace(user_id="nobody")
    tracing.score_current_trace("x", 1)
    assert "outside of a span is ignored" in capsys.readouterr().err


class _Recorder(BaseHTTPRequestHandler):
    status = 202
    bodies: list[tuple[str, str | None, bytes]]

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length", 0))
        self.bodies.append((self.path, self.headers.get("authorization"), self.rfile.read(length)))
        self.send_response(self.status)
        self.send_header("content-type", "application/json")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *_: Any) -> None:
        pass


@pytest.fixture
def server() -> Iterator[tuple[str, type[_Recorder]]]:
    handler = type("Handler", (_Recorder,), {"bodies": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_scores_are_sent_as_one_array_with_basic_auth(server):
    url, handler = server
    tracing.configure(url=url, public_key="pk", secret_key="sk", environment="prod")
    try:
        with tracing.start_as_current_span("scored") as span:
            tracing.score_current_trace("quality", 0.9, comment="good")
            tracing.score_current_span("ok", 1, data_type="BOOLEAN")
        tracing.flush()
    finally:
        tracing.shutdown()
    scores = [json.loads(body) for path, _, body in handler.bodies if path == "/api/public/scores"]
    assert len(scores) == 1
    quality, ok = scores[0]
    assert quality["traceId"] == ok["traceId"] == span.trace_id
    assert "observationId" not in quality
    assert (quality["name"], quality["value"], quality["comment"]) == ("quality", 0.9, "good")
    assert (ok["observationId"], ok["dataType"], ok["environment"]) == (span.id, "BOOLEAN", "prod")
    auths = {auth for _, auth, _ in handler.bodies}
    assert auths == {"Basic cGs6c2s="}
    assert "/api/public/otel/v1/traces" in {path for path, _, _ in handler.bodies}


def test_a_refused_export_is_reported_once_and_never_raises(server, capsys):
    url, handler = server
    handler.status = 401
    tracing.configure(url=url, public_key="pk", secret_key="wrong")
    try:
        for _ in range(2):
            with tracing.start_as_current_span("lost"):
                pass
            tracing.flush()
    finally:
        tracing.shutdown()
    err = capsys.readouterr().err
    assert err.count("axonal.tracing: cannot export spans") == 1


def test_without_keys_nothing_is_sent(server, monkeypatch, capsys):
    url, handler = server
    for name in (
        "AXONAL_PUBLIC_KEY",
        "AXONAL_SECRET_KEY",
        "LANGFUSE_PUBLIC_KEY",
        "LANGFUSE_SECRET_KEY",
    ):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AXONAL_TRACING_URL", url)
    tracing.shutdown()
    try:
        with tracing.start_as_current_span("unsent"):
            pass
        tracing.flush()
    finally:
        tracing.shutdown()
    assert handler.bodies == []


def test_importing_the_sdk_loads_no_opentelemetry():
    code = (
        "import sys, axonal.tracking, axonal.tracing\n"
        "print([m for m in sys.modules if m.startswith('opentelemetry')])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "[]"
