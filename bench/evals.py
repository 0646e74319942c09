"""Online LLM-as-a-judge evaluation: traces ingested to scores created, the judge a local double.

Starts its own nats-server and PostgreSQL, the tracking and evaluation services as their own
processes, and the LLM provider double (``axonal_testing.llm_double``, answering each call in
200 ms, as a hosted model about does). One connection, one template and one online rule on
traces named ``chat`` (sampling 1.0, no delay, 64 judge calls at once). Publishes N traces at
RATE traces/s as TraceBatch messages (the api's ingest path), plus 2 per 10 matching no rule,
and notes when each trace's ``score.created`` event arrives.

The reference, measured in the same run: the lag from ingest to ``trace.ingested`` (tracking
storing the trace; every evaluation starts there) plus one judge call (200 ms): what an
evaluation cannot go below. Prints evaluations/s, the ingest -> score lag p50/p99 and its
ratio to the reference, against the targets (>= 50 evaluations/s, p99 <= 2 s + the rule's
delay). Run: ``.venv/bin/python bench/evals.py``.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import statistics
import sys
import time
import uuid
from datetime import UTC, datetime

import nats
import psutil
from _servers import nats_and_postgres

from axonal_bus import loop, rpc
from axonal_bus.errors import AxonalError
from axonal_bus.ping import ping
from axonal_bus.provision import provision
from axonal_events import Subjects
from axonal_events.evaluators import CreateEvalRule, CreateEvalTemplate, UpsertLlmConnection
from axonal_events.rpcs import Evaluation
from axonal_events.traces import TraceBatch, TraceRecord
from axonal_testing.llm_double import llm_double

N = int(os.environ.get("BENCH_TRACES", "1000"))
RATE = float(os.environ.get("BENCH_RATE", "100"))
PER_BATCH = 10
OTHERS_PER_BATCH = 2  # traces no rule matches, in each batch
JUDGE_LATENCY = 0.2
DELAY = 0.0
TARGET_EVALS_PER_S = 50.0
TARGET_P99_S = 2.0 + DELAY
NAMESPACE = "benchevals"
PROJECT_ID = "0190bbbb-cccc-7ddd-8eee-ffffffffffff"
PROJECT = "bench/evals"
SERVICES = ("tracking", "evaluation")


async def wait_healthy(nc, subjects: Subjects, service: str) -> None:
    for _ in range(600):
        try:
            if (await ping(nc, subjects, service, 0.5)).status == "ok":
                return
        except AxonalError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError(f"the {service} service did not start")


async def setup(nc, subjects: Subjects, base_url: str) -> None:
    calls = [
        (Evaluation.upsert_llm_connection, UpsertLlmConnection(
            project_id=PROJECT_ID, provider="judge", adapter="openai", secret_key="sk-bench",
            base_url=base_url)),
        (Evaluation.create_eval_template, CreateEvalTemplate(
            project_id=PROJECT_ID, name="helpfulness",
            prompt="Question: {{question}}\nAnswer: {{answer}}\nScore the answer.")),
        (Evaluation.create_eval_rule, CreateEvalRule(
            project_id=PROJECT_ID, project=PROJECT, name="chat", template="helpfulness",
            connection="judge", model="gpt-judge", filter={"names": ["chat"]},
            mapping={"question": "input", "answer": "output.answer"}, sampling=1.0,
            delay_seconds=DELAY, max_concurrency=64)),
    ]  # fmt: skip
    for method, request in calls:
        await rpc.call(nc, subjects, method, request, timeout=10)  # type: ignore[arg-type]


def batch(trace_ids: list[str]) -> bytes:
    now = datetime.now(UTC)
    records = [
        TraceRecord(id=tid, event_time=now, timestamp=now, name=name, input="what is 2+2?",
                    output={"answer": "4"})
        for tid in trace_ids
        for name in ("chat",)
    ] + [
        TraceRecord(id=uuid.uuid4().hex, event_time=now, timestamp=now, name="other")
        for _ in range(OTHERS_PER_BATCH)
    ]  # fmt: skip
    return TraceBatch(project_id=PROJECT_ID, project=PROJECT, received_at=now, traces=records)\
        .model_dump_json(exclude_none=True).encode()  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[max(0, int(len(ordered) * q) - 1)]


async def run(nats_url: str, database_url: str) -> None:  # noqa: PLR0915
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    subjects = Subjects(NAMESPACE)
    await provision(js, subjects)
    env = os.environ | {
        "AXONAL_NATS_URL": nats_url,
        "AXONAL_NAMESPACE": NAMESPACE,
        "AXONAL_DATABASE_URL": database_url,
        "AXONAL_LOG_LEVEL": "WARNING",
        # a key of the run's own, as every deployment sets one
        "AXONAL_EVALUATION_SECRET_KEY": base64.urlsafe_b64encode(os.urandom(32)).decode(),
    }
    processes = [
        await asyncio.create_subprocess_exec(sys.executable, "-m", f"axonal_{name}", env=env)
        for name in SERVICES
    ]
    published: dict[str, float] = {}
    ingested: dict[str, float] = {}
    scored: dict[str, float] = {}
    done = asyncio.Event()

    async def on_ingested(msg) -> None:
        now = time.perf_counter()
        for item in json.loads(msg.data)["data"]["traces"]:
            if item["trace_id"] in published:
                ingested.setdefault(item["trace_id"], now)

    async def on_score(msg) -> None:
        scored.setdefault(json.loads(msg.data)["data"]["score"]["trace_id"], time.perf_counter())
        if len(scored) >= N:
            done.set()

    try:
        with llm_double(latency=JUDGE_LATENCY) as double:
            for name in SERVICES:
                await wait_healthy(nc, subjects, name)
            await setup(nc, subjects, double.base_url)
            await nc.subscribe(subjects.event("trace.ingested"), cb=on_ingested)
            await nc.subscribe(subjects.event("score.created"), cb=on_score)
            others = N // PER_BATCH * OTHERS_PER_BATCH
            print(f"evals: {N:,} matching traces (and {others:,} others) at {RATE:,.0f} traces/s, "
                  f"judge answering in {JUDGE_LATENCY * 1000:.0f} ms")  # fmt: skip
            cpu = [psutil.Process(p.pid) for p in processes]
            cpu_before = [sum(c.cpu_times()[:2]) for c in cpu]
            started = time.perf_counter()
            ids = [uuid.uuid4().hex for _ in range(N)]
            for index in range(0, N, PER_BATCH):
                due = started + index / RATE
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                part = ids[index : index + PER_BATCH]
                now = time.perf_counter()
                published.update(dict.fromkeys(part, now))
                await js.publish(subjects.ingest(f"traces.{PROJECT_ID}"), batch(part),
                                 headers={"Nats-Msg-Id": uuid.uuid4().hex})  # fmt: skip
            sent = time.perf_counter() - started
            await asyncio.wait_for(done.wait(), timeout=300)
            finished = max(scored.values()) - started
            used = [sum(c.cpu_times()[:2]) - b for c, b in zip(cpu, cpu_before, strict=True)]
            calls = len(double.requests)
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            await asyncio.wait_for(process.wait(), 30)
        await nc.close()
    lags = [scored[t] - published[t] for t in ids]
    reference = [ingested[t] - published[t] + JUDGE_LATENCY for t in ids if t in ingested]
    rate = N / finished
    p50, p99 = statistics.median(lags), percentile(lags, 0.99)
    ref50, ref99 = statistics.median(reference), percentile(reference, 0.99)
    print(f"  published in {sent:.2f}s; {N:,} scores in {finished:.2f}s, {calls:,} judge calls")
    print(f"  evaluations/s: {rate:,.1f} (target >= {TARGET_EVALS_PER_S:.0f}: "
          f"{'met' if rate >= TARGET_EVALS_PER_S else 'NOT met'})")  # fmt: skip
    print(
        f"  ingest -> score lag: p50 {p50 * 1000:,.0f} ms, p99 {p99 * 1000:,.0f} ms "
        f"(target p99 <= {TARGET_P99_S:.1f} s: {'met' if p99 <= TARGET_P99_S else 'NOT met'})"
    )
    print(f"  reference (ingest -> trace.ingested + one judge call): p50 {ref50 * 1000:,.0f} ms, "
          f"p99 {ref99 * 1000:,.0f} ms; lag / reference: p50 x{p50 / ref50:.2f}, "
          f"p99 x{p99 / ref99:.2f}")  # fmt: skip
    for name, seconds in zip(SERVICES, used, strict=True):
        print(f"  {name} CPU {seconds / N * 1e3:.2f} ms per evaluation "
              f"({seconds / finished:.0%} of a core)")  # fmt: skip


async def main() -> None:
    with nats_and_postgres() as (nats_url, database_url):
        await run(nats_url, database_url)


if __name__ == "__main__":
    loop.run(main())
