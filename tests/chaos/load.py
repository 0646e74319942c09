"""Steady load for the chaos suite: metric points, OTLP spans and DAG runs, each posted to the
api replicas in turn until one acknowledges it, keeping account of what was acknowledged.

A batch that is not acknowledged is posted again, to the next api, exactly as before (the same
``Idempotency-Key``, the same span ids), as the SDKs do. What a stream acknowledged must be
stored once; the batch under way when it was finished (``given_up``) may be stored or not.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from datetime import UTC, datetime
from typing import Any

import httpx
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

__all__ = [
    "DAG_OPS",
    "METRIC",
    "PER_BATCH",
    "SPANS_PER_TRACE",
    "AckedStream",
    "DagStream",
    "MetricStream",
    "SpanStream",
]

PER_BATCH = 25
METRIC = "chaos"
SPANS_PER_TRACE = 10
OTLP_TRACES = "/api/public/otel/v1/traces"
DAG_OPS = ("prepare", "train", "report")


class AckedStream(threading.Thread):
    """Posts batch 0, 1, 2... every ``pause`` seconds, each until an api acknowledges it.

    ``acked`` holds the acknowledged batch numbers (with :meth:`acked_at` when), ``retries``
    counts the posts that were not acknowledged, ``errors`` says why, ``given_up`` holds the
    batch the stream was finished on before it was acknowledged.
    """

    kind = "batches"
    accepted = 202

    def __init__(self, api_urls: list[str], pause: float, **client: Any) -> None:
        super().__init__(name=f"{self.kind}-stream", daemon=True)
        self.api_urls = api_urls
        self.pause = pause
        self.client = client
        self.acked: list[int] = []
        self.acked_at: dict[int, float] = {}
        self.retries = 0
        self.errors: list[str] = []
        self.given_up: list[int] = []
        self._done = threading.Event()

    def request(self, number: int) -> dict[str, Any]:
        """``httpx.Client.request`` arguments posting batch ``number`` (the same every time)."""
        raise NotImplementedError

    def on_acked(self, number: int, reply: httpx.Response) -> None:
        """What a stream keeps of an acknowledgement, besides the batch's number."""

    def run(self) -> None:
        clients = [httpx.Client(base_url=url, timeout=10, **self.client) for url in self.api_urls]
        try:
            number = 0
            while not self._done.is_set():
                self._post(clients, number)
                number += 1
                self._done.wait(self.pause)
        finally:
            for client in clients:
                client.close()

    def _post(self, clients: list[httpx.Client], number: int) -> None:
        request, attempt = self.request(number), number
        while True:
            client = clients[attempt % len(clients)]
            attempt += 1
            try:
                reply = client.request(**request)
            except httpx.HTTPError as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
            else:
                if reply.status_code == self.accepted:
                    self.on_acked(number, reply)
                    self.acked_at[number] = time.monotonic()
                    self.acked.append(number)
                    return
                self.errors.append(f"HTTP {reply.status_code}: {reply.text[:200]}")
            self.retries += 1
            if self._done.wait(0.1):
                self.given_up.append(number)
                return

    def acked_since(self, moment: float) -> int:
        """How many batches were acknowledged after ``moment`` (``time.monotonic()``)."""
        return sum(1 for at in list(self.acked_at.values()) if at > moment)  # a copy: it grows

    def wait_acked(self, more: int, timeout: float = 60) -> None:
        """Until ``more`` batches than now are acknowledged."""
        target, deadline = len(self.acked) + more, time.monotonic() + timeout
        while len(self.acked) < target:
            if time.monotonic() > deadline or not self.is_alive():
                raise AssertionError(
                    f"{self.kind}: {len(self.acked)} of {target} batches acknowledged; "
                    f"last errors: {self.errors[-3:]}"
                )
            time.sleep(0.05)

    def finish(self) -> None:
        """Stop after the batch under way (acknowledged, or given up while finishing)."""
        self._done.set()
        if self.is_alive():
            self.join(30)


class MetricStream(AckedStream):
    """``PER_BATCH`` new points of ``chaos`` per batch, to one run, as the SDK posts them."""

    kind = "metric points"

    def __init__(
        self, api_urls: list[str], token: str, path: str, run_uuid: str, pause: float = 0.02
    ) -> None:
        super().__init__(api_urls, pause, headers={"Authorization": f"Bearer {token}"})
        self.path = path
        self.run_uuid = run_uuid

    @property
    def points(self) -> int:
        return len(self.acked) * PER_BATCH

    def request(self, number: int) -> dict[str, Any]:
        at = datetime.now(UTC).isoformat()
        steps = range(number * PER_BATCH, (number + 1) * PER_BATCH)
        points = [{"name": METRIC, "step": s, "value": float(s), "at": at} for s in steps]
        return {
            "method": "POST",
            "url": self.path,
            "json": {"run_uuid": self.run_uuid, "points": points},
            "headers": {"Idempotency-Key": f"chaos-{self.run_uuid}-{number}"},
        }

    def steps(self, numbers: list[int]) -> set[int]:
        return {n * PER_BATCH + i for n in numbers for i in range(PER_BATCH)}


class SpanStream(AckedStream):
    """A trace of ``SPANS_PER_TRACE`` spans per batch, as an OpenTelemetry exporter posts it
    (OTLP/HTTP protobuf, the project's keys). Every span id starts with ``prefix``."""

    kind = "spans"
    accepted = 200

    def __init__(
        self, api_urls: list[str], auth: tuple[str, str], prefix: str, pause: float = 0.05
    ) -> None:
        super().__init__(api_urls, pause, auth=auth)
        self.prefix = prefix

    def span_ids(self, number: int) -> list[str]:
        return [f"{self.prefix}{number:08x}{i:04x}" for i in range(SPANS_PER_TRACE)]

    def ids(self, numbers: list[int]) -> set[str]:
        return {span for n in numbers for span in self.span_ids(n)}

    def request(self, number: int) -> dict[str, Any]:
        now = time.time_ns()
        spans = [
            Span(
                trace_id=bytes.fromhex(f"{self.prefix}{number:028x}"),
                span_id=bytes.fromhex(span_id),
                name=f"step-{index}",
                kind=Span.SPAN_KIND_INTERNAL,
                start_time_unix_nano=now + index * 1000,
                end_time_unix_nano=now + (index + 1) * 1000,
            )
            for index, span_id in enumerate(self.span_ids(number))
        ]
        service = KeyValue(key="service.name", value=AnyValue(string_value="chaos"))
        resource = ResourceSpans(
            resource=Resource(attributes=[service]), scope_spans=[ScopeSpans(spans=spans)]
        )
        body = ExportTraceServiceRequest(resource_spans=[resource]).SerializeToString()
        return {
            "method": "POST",
            "url": OTLP_TRACES,
            "content": body,
            "headers": {"content-type": "application/x-protobuf"},
        }


def dag_polyaxonfile(number: int) -> str:
    """A three-op chain; each op sleeps a little (so faults find ops running) and retries
    when the process running it is lost (an agent killed fails its runs truthfully)."""
    op = (
        "  - name: {name}{deps}\n"
        "    termination: {{maxRetries: 3}}\n"
        "    component:\n"
        "      run: {run}\n"
    )
    ops = []
    for index, name in enumerate(DAG_OPS):
        script = f"import time; time.sleep(0.3); print('{name} of dag {number}')"
        container = {"image": "python", "command": [sys.executable, "-c", script]}
        run = json.dumps({"kind": "job", "container": container})
        deps = f"\n    dependencies: [{DAG_OPS[index - 1]}]" if index else ""
        ops.append(op.format(name=name, deps=deps, run=run))
    return "version: 1.1\nkind: component\nrun:\n  kind: dag\n  operations:\n" + "".join(ops)


class DagStream(AckedStream):
    """A DAG run of :data:`DAG_OPS` per batch, submitted like ``axonal run`` does."""

    kind = "DAG runs"

    def __init__(self, api_urls: list[str], token: str, project: str, pause: float = 2.0) -> None:
        super().__init__(api_urls, pause, headers={"Authorization": f"Bearer {token}"})
        self.path = f"/api/v1/{project}/runs"
        self.uuids: dict[int, str] = {}

    def request(self, number: int) -> dict[str, Any]:
        return {
            "method": "POST",
            "url": self.path,
            "json": {"content": dag_polyaxonfile(number), "name": f"chaos-dag-{number}"},
            "headers": {"Idempotency-Key": f"chaos-dag-{number}"},
        }

    def on_acked(self, number: int, reply: httpx.Response) -> None:
        self.uuids[number] = str(reply.json()["uuid"]).replace("-", "")
