"""OTLP trace ingestion on the embedded stack: spans accepted by the api to spans queryable.

Starts a stack in a temporary home (``axonal up --detach`` on free ports, with its defaults:
PostgreSQL durable), creates a project and an API key, then sends 20,000 spans (~1 KB each,
10 per trace) as OTLP/HTTP protobuf in batches of 500 (4 requests in flight) to
``/api/public/otel/v1/traces`` and waits until every span is stored. It does so in three
rounds, each of new spans, and reports their medians: a small machine's speed varies from
one second to the next, and one round is one sample of it.

The tracking service acknowledges a batch only once its transaction committed, so once its
durable consumer has acknowledged every batch, all spans are queryable (then one count of the
``observations`` table confirms it). Polling that count instead would scan the table fifty
times a second and take CPU from the stack being measured. Prints each round's figures, CPU
time per span by process and how long a fixed pure-Python loop took just before (the
machine's speed then, to read the figures by), then the accepted and queryable spans/s, the ratio to
Phoenix's ~120 spans/s, and how long after the last accept all spans were queryable, against
the targets (>= 10,000 spans/s queryable, <= 2 s after the last accept).

Then what authentication and authorization cost: the same sends, alternating between the
stack's api (a project API key, checked as every request is) and a second api process on the
same stack without access checks (``bench/_unchecked_api.py``), ``AUTH_PAIRS`` pairs; it
prints the api's accepted spans/s and CPU per span both ways and the cost against the target
(<= 5% of throughput).
Run: ``.venv/bin/python bench/traces.py``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import httpx
import nats
import psutil
from nats.js import JetStreamContext
from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest
from opentelemetry.proto.common.v1.common_pb2 import AnyValue, KeyValue
from opentelemetry.proto.resource.v1.resource_pb2 import Resource
from opentelemetry.proto.trace.v1.trace_pb2 import ResourceSpans, ScopeSpans, Span

from axonal_events import StreamKind, Subjects
from axonal_stack.ports import free_port
from axonal_stack.state import StackState
from axonal_testing.bus import drained
from axonal_testing.stack import RunningStack, start_stack, stop_stack

SPANS = 20_000
PER_TRACE = 10
PER_BATCH = 500
IN_FLIGHT = 4
ROUNDS = 3
REFERENCE_LOOP = 1_000_000
PHOENIX_SPANS_PER_S = 120
AUTH_PAIRS = 6
AUTH_SPANS = 10_000
AUTH_COST_TARGET = 0.05
PROTOBUF = {"content-type": "application/x-protobuf"}
TRACES_STREAM = Subjects().stream_name(StreamKind.INGEST)
TRACES_DURABLE = "tracking-traces"


def _attr(key: str, value: str | int) -> KeyValue:
    if isinstance(value, int):
        return KeyValue(key=key, value=AnyValue(int_value=value))
    return KeyValue(key=key, value=AnyValue(string_value=value))


def _span(run: str, trace_no: int, span_no: int, start_ns: int) -> Span:
    trace_id = f"{run}{trace_no:08x}".ljust(32, "0")
    # unique in the project (observations are keyed by span id); never all zeros
    span_id = f"{run[:4]}{trace_no + 1:06x}{span_no + 1:06x}"
    parent = f"{run[:4]}{trace_no + 1:06x}{1:06x}" if span_no else ""
    text = f"span {span_no} of trace {trace_no} " * 18  # ~450 bytes in, ~450 bytes out
    attributes = [
        _attr("langfuse.observation.input", f'{{"prompt": "{text}"}}'),
        _attr("langfuse.observation.output", f'"{text}"'),
        _attr("user.id", f"user-{trace_no % 50}"),
    ]
    if span_no % 3 == 1:
        attributes += [
            _attr("langfuse.observation.type", "generation"),
            _attr("gen_ai.request.model", "gpt-4o-mini"),
            _attr("gen_ai.usage.input_tokens", 120),
            _attr("gen_ai.usage.output_tokens", 40),
        ]
    return Span(
        trace_id=bytes.fromhex(trace_id),
        span_id=bytes.fromhex(span_id),
        parent_span_id=bytes.fromhex(parent) if parent else b"",
        name=f"step-{span_no}",
        kind=Span.SPAN_KIND_INTERNAL,
        start_time_unix_nano=start_ns + span_no * 1_000_000,
        end_time_unix_nano=start_ns + (span_no + 1) * 1_000_000,
        attributes=attributes,
    )


def batches(run: str) -> list[bytes]:
    """``SPANS`` spans as protobuf exports of ``PER_BATCH`` spans, encoded before timing."""
    start_ns = time.time_ns()
    spans = [_span(run, index // PER_TRACE, index % PER_TRACE, start_ns) for index in range(SPANS)]
    resource = Resource(attributes=[_attr("service.name", "bench")])
    out = []
    for first in range(0, SPANS, PER_BATCH):
        scope = ScopeSpans(spans=spans[first : first + PER_BATCH])
        export = ExportTraceServiceRequest(
            resource_spans=[ResourceSpans(resource=resource, scope_spans=[scope])]
        )
        out.append(export.SerializeToString())
    return out


async def send(http: httpx.AsyncClient, bodies: list[bytes]) -> float:
    """Send every body, ``IN_FLIGHT`` at a time; the time the last one was accepted."""
    pending = iter(bodies)

    async def worker() -> None:
        for body in pending:
            reply = await http.post("/api/public/otel/v1/traces", content=body, headers=PROTOBUF)
            if reply.status_code != 200:
                raise RuntimeError(f"the api answered {reply.status_code}: {reply.text}")

    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    return time.perf_counter()


async def stored(pool: asyncpg.Pool, project_id: str) -> int:
    query = "SELECT count(*) FROM tracking.observations WHERE project_id = $1"
    return int(await pool.fetchval(query, project_id))


async def wait_stored(
    js: JetStreamContext, pool: asyncpg.Pool, project_id: str, total: int
) -> float:
    """When every batch was stored: the tracking consumer acknowledged all it was sent."""
    deadline = time.monotonic() + 300
    while not await drained(js, TRACES_STREAM, TRACES_DURABLE):
        if time.monotonic() > deadline:
            raise TimeoutError(f"only {await stored(pool, project_id)} of {total} spans stored")
        await asyncio.sleep(0.01)
    done = time.perf_counter()
    if (found := await stored(pool, project_id)) != total:
        raise RuntimeError(f"{found} spans stored, not {total}")
    return done


def cpu_seconds(stack: RunningStack) -> dict[str, float]:
    """CPU time (user + system) so far of the stack's processes by role, children included
    (PostgreSQL's backends)."""
    found = {}
    for role, ref in StackState.model_validate(stack.state()).processes().items():
        try:
            process = psutil.Process(ref.pid)
            family = [process]
            if role == "postgres":
                family += process.children(recursive=True)
            found[role] = sum(sum(p.cpu_times()[:2]) for p in family)
        except psutil.Error:
            continue
    return found


async def project_key(api_url: str, token: str) -> tuple[str, tuple[str, str]]:
    headers = {"Authorization": f"Bearer {token}"}  # the home's administrator
    async with httpx.AsyncClient(base_url=api_url, timeout=30, headers=headers) as api:
        reply = await api.post("/api/v1/projects", json={"owner": "bench", "name": "traces"})
        reply.raise_for_status()
        key = await api.post("/api/v1/projects/bench/traces/api-keys", json={})
        key.raise_for_status()
        body = key.json()
    return body["project"]["id"], (body["public_key"], body["secret_key"])


@dataclass(frozen=True)
class Round:
    """One send of ``SPANS`` spans: rates, the lag of the last span, CPU by role."""

    bytes_per_span: float
    reference_ms: float
    accepted: float
    queryable: float
    lag: float
    cpu: dict[str, float]


def reference_ms() -> float:
    """CPU milliseconds a fixed pure-Python loop takes now: the machine's speed at the time of
    a round (a shared host's varies by half from one minute to the next)."""
    start = time.process_time()
    total = 0
    for number in range(REFERENCE_LOOP):
        total += number * number % 7
    return (time.process_time() - start) * 1000


async def one_round(
    stack: RunningStack, http: httpx.AsyncClient, js: JetStreamContext, pool: asyncpg.Pool,
    project_id: str, stored_before: int,
) -> Round:  # fmt: skip
    bodies = batches(os.urandom(4).hex())
    reference = reference_ms()
    cpu_before = cpu_seconds(stack)
    start = time.perf_counter()
    accepted_at = await send(http, bodies)
    queryable_at = await wait_stored(js, pool, project_id, stored_before + SPANS)
    cpu_after = cpu_seconds(stack)
    cpu = {
        role: (cpu_after[role] - cpu_before[role]) / SPANS * 1e6
        for role in cpu_after
        if role in cpu_before and cpu_after[role] > cpu_before[role]
    }
    size = sum(len(body) for body in bodies) / SPANS
    rates = SPANS / (accepted_at - start), SPANS / (queryable_at - start)
    return Round(size, reference, *rates, queryable_at - accepted_at, cpu)


def report(rounds: list[Round]) -> None:
    print(
        f"OTLP trace ingestion on the embedded stack: {SPANS:,} spans, {PER_TRACE} per trace, "
        f"batches of {PER_BATCH} ({rounds[0].bytes_per_span:,.0f} bytes/span in protobuf), "
        f"{len(rounds)} rounds"
    )
    for number, found in enumerate(rounds, 1):
        cpu = ", ".join(
            f"{r} {us:,.0f}" for r, us in sorted(found.cpu.items(), key=lambda i: -i[1])
        )
        print(
            f"  round {number}: reference loop {found.reference_ms:4.0f} ms; "
            f"accepted {found.accepted:7,.0f}/s, "
            f"queryable {found.queryable:7,.0f}/s, lag {found.lag:.2f} s; "
            f"CPU µs/span: {cpu}; {sum(found.cpu.values()):,.0f} in all"
        )
    accepted = statistics.median(r.accepted for r in rounds)
    queryable = statistics.median(r.queryable for r in rounds)
    lag = statistics.median(r.lag for r in rounds)
    print(f"  accepted by the api        {accepted:10,.0f} spans/s (median)")
    print(f"  queryable (stored)         {queryable:10,.0f} spans/s (median)")
    worst = max(r.lag for r in rounds)
    print(f"  all queryable {lag:.2f} s after the last accept (median; worst {worst:.2f} s)")
    print(f"  Phoenix ~{PHOENIX_SPANS_PER_S} spans/s: {queryable / PHOENIX_SPANS_PER_S:.0f}x")
    ok = [queryable >= 10_000, worst <= 2.0]  # every round's last span, not the median's
    names = [">= 10,000 spans/s queryable", "<= 2 s after the last accept"]
    print(
        "  targets: "
        + ", ".join(f"{n} {'met' if k else 'MISSED'}" for n, k in zip(names, ok, strict=True))
    )


@dataclass(frozen=True)
class Send:
    """One send of ``AUTH_SPANS`` spans to one api: its rate and its CPU per span."""

    accepted: float
    api_cpu_us: float


async def timed_send(
    http: httpx.AsyncClient, process: psutil.Process, js: JetStreamContext
) -> Send:
    bodies = batches(os.urandom(4).hex())[: AUTH_SPANS // PER_BATCH]
    cpu_before, start = sum(process.cpu_times()[:2]), time.perf_counter()
    accepted_at = await send(http, bodies)
    cpu = sum(process.cpu_times()[:2]) - cpu_before
    while not await drained(js, TRACES_STREAM, TRACES_DURABLE):  # noqa: ASYNC110 - polled
        # no backlog for the next send
        await asyncio.sleep(0.01)
    return Send(AUTH_SPANS / (accepted_at - start), cpu / AUTH_SPANS * 1e6)


def unchecked_api(stack: RunningStack, project_id: str, port: int) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
    env |= {
        "AXONAL_NATS_URL": stack.nats_url,
        "AXONAL_API_HOST": "127.0.0.1",
        "AXONAL_API_PORT": str(port),
        "AXONAL_API_WEB_DIR": "",
        "BENCH_PROJECT": f"{project_id} bench/traces",
    }
    script = Path(__file__).with_name("_unchecked_api.py")
    return subprocess.Popen([sys.executable, str(script)], env=env)


async def auth_cost(
    stack: RunningStack, auth: tuple[str, str], project_id: str, js: JetStreamContext
) -> None:
    port = free_port()
    reference = unchecked_api(stack, project_id, port)
    try:
        unchecked_url = f"http://127.0.0.1:{port}"
        async with httpx.AsyncClient(base_url=unchecked_url, timeout=5) as probe:
            for _ in range(300):
                try:
                    if (await probe.get("/healthz")).status_code == 200:
                        break
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.1)
        stack_api = psutil.Process(StackState.model_validate(stack.state()).processes()["api"].pid)
        checked, unchecked = [], []
        async with (
            httpx.AsyncClient(base_url=stack.api_url, auth=auth, timeout=60) as with_access,
            httpx.AsyncClient(base_url=unchecked_url, timeout=60) as without,
        ):
            unchecked_api_process = psutil.Process(reference.pid)
            for pair in range(AUTH_PAIRS):  # ABBA: neither goes first every time
                sends = [
                    (checked, with_access, stack_api),
                    (unchecked, without, unchecked_api_process),
                ]
                for found, http, process in sends if pair % 2 == 0 else reversed(sends):
                    found.append(await timed_send(http, process, js))
    finally:
        reference.terminate()
        reference.wait(10)
    report_auth_cost(checked, unchecked)


def report_auth_cost(checked: list[Send], unchecked: list[Send]) -> None:
    rate_with = statistics.median(s.accepted for s in checked)
    rate_without = statistics.median(s.accepted for s in unchecked)
    cpu_with = statistics.median(s.api_cpu_us for s in checked)
    cpu_without = statistics.median(s.api_cpu_us for s in unchecked)
    cost = 1 - rate_with / rate_without
    print(
        f"authentication and authorization ({AUTH_PAIRS} alternating pairs of "
        f"{AUTH_SPANS:,} spans, project API key):"
    )
    print(f"  accepted with access checks    {rate_with:10,.0f} spans/s (median)")
    print(f"  accepted without (reference)   {rate_without:10,.0f} spans/s (median)")
    print(f"  api CPU µs/span with {cpu_with:,.1f}, without {cpu_without:,.1f}")
    verdict = "met" if cost <= AUTH_COST_TARGET else "MISSED"
    print(f"  cost {cost:+.1%} of throughput; target <= {AUTH_COST_TARGET:.0%} {verdict}")


async def measure(stack: RunningStack) -> None:
    api_url, database_url = str(stack.status["api_url"]), stack.database_url
    project_id, auth = await project_key(api_url, stack.admin_token)
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    nc = await nats.connect(stack.nats_url)
    js = nc.jetstream()
    rounds = []
    try:
        async with httpx.AsyncClient(base_url=api_url, auth=auth, timeout=60) as http:
            await send(http, batches("ff" * 4)[:2])  # warm-up: 1,000 spans of another run
            await wait_stored(js, pool, project_id, 2 * PER_BATCH)
            for number in range(ROUNDS):
                before = 2 * PER_BATCH + number * SPANS
                rounds.append(await one_round(stack, http, js, pool, project_id, before))
        report(rounds)
        await auth_cost(stack, auth, project_id, js)
    finally:
        await nc.close()
        await pool.close()


def main() -> None:
    # the stack's defaults (PostgreSQL durable, as `axonal up` runs it) on free ports: another
    # stack may run on the default ones
    env = {f"AXONAL_{name}_PORT": str(free_port()) for name in ("NATS", "POSTGRES", "API")}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        stack = start_stack(home, env)
        try:
            asyncio.run(measure(stack))
        finally:
            stop_stack(home, env)


if __name__ == "__main__":
    main()
