"""Webhook delivery: events published at a steady rate, POSTed to a local receiver.

Starts its own nats-server and PostgreSQL, the notifications service as its own process
(``python -m axonal_notifications``, loopback receivers allowed), a receiver on 127.0.0.1,
and one subscription to ``run.*``. Publishes N events at RATE events/s and prints deliveries
per second and the event -> delivery latency (publish to the receiver's arrival) p50/p99
against the target (p99 < 100 ms). Run: ``.venv/bin/python bench/webhooks.py``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import time

import nats
import psutil
from _servers import nats_and_postgres
from aiohttp import web

from axonal_bus import loop, rpc
from axonal_bus.errors import AxonalError
from axonal_bus.outbox import event_headers
from axonal_bus.ping import ping
from axonal_bus.provision import provision
from axonal_events import RunStatus, Subjects
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import WebhookSpec
from axonal_testing.factories import run_event

N = int(os.environ.get("BENCH_EVENTS", "10000"))
RATE = float(os.environ.get("BENCH_RATE", "1000"))
TARGET_P99_MS = 100.0
NAMESPACE = "benchhooks"
PROJECT = "bench/hooks"


class Receiver:
    """A lean aiohttp server noting when each event id arrived (a real receiver runs on another
    machine: on this one it should take as little of the CPU the service needs as it can)."""

    def __init__(self) -> None:
        self.arrived: dict[str, float] = {}
        self.done = asyncio.Event()

    async def handle(self, request: web.Request) -> web.Response:
        await request.read()
        self.arrived.setdefault(request.headers["webhook-id"], time.perf_counter())
        if len(self.arrived) >= N:
            self.done.set()
        return web.Response(status=204)


async def wait_healthy(nc, subjects: Subjects) -> None:
    for _ in range(600):
        try:
            if (await ping(nc, subjects, "notifications", 0.5)).status == "ok":
                return
        except AxonalError:
            pass
        await asyncio.sleep(0.1)
    raise RuntimeError("the notifications service did not start")


async def run(nats_url: str, database_url: str) -> None:
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    subjects = Subjects(NAMESPACE)
    await provision(js, subjects)
    receiver = Receiver()
    app = web.Application()
    app.router.add_post("/hook", receiver.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    env = os.environ | {
        "AXONAL_NATS_URL": nats_url,
        "AXONAL_NAMESPACE": NAMESPACE,
        "AXONAL_DATABASE_URL": database_url,
        "AXONAL_LOG_LEVEL": "WARNING",
        "AXONAL_NOTIFICATIONS_ALLOW_NETWORKS": "127.0.0.1/32",
    }
    service = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "axonal_notifications", env=env
    )
    try:
        await wait_healthy(nc, subjects)
        spec = WebhookSpec(project=PROJECT, url=f"http://127.0.0.1:{port}/hook", events=["run.*"])
        await rpc.call(nc, subjects, Notifications.create_webhook, spec, timeout=10)
        events = [run_event(RunStatus.SUCCEEDED, project=PROJECT) for _ in range(N)]
        published: dict[str, float] = {}
        print(f"webhooks: {N:,} run.succeeded events at {RATE:,.0f}/s to one local receiver")
        cpu = psutil.Process(service.pid)
        cpu_before = sum(cpu.cpu_times()[:2])
        started = time.perf_counter()
        tick = max(0.01, 1 / RATE)
        per_tick = max(1, round(RATE * tick))
        for i in range(0, N, per_tick):
            due = started + (i / per_tick) * tick
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            batch = events[i : i + per_tick]
            for event in batch:
                published[event.id] = time.perf_counter()
            await asyncio.gather(
                *(
                    js.publish(subjects.event(e.event_type), e.to_json(), headers=event_headers(e))
                    for e in batch
                )
            )
        sent = time.perf_counter() - started
        await asyncio.wait_for(receiver.done.wait(), timeout=120)
        finished = max(receiver.arrived.values()) - started
        service_cpu = sum(cpu.cpu_times()[:2]) - cpu_before
        latencies = sorted((receiver.arrived[i] - published[i]) * 1000 for i in published)
        p50 = statistics.median(latencies)
        p99 = latencies[int(len(latencies) * 0.99) - 1]
        print(f"  published in {sent:.2f}s ({N / sent:,.0f} events/s)")
        print(f"  delivered {len(receiver.arrived):,} in {finished:.2f}s "
              f"({len(receiver.arrived) / finished:,.0f} deliveries/s)")  # fmt: skip
        print(f"  event -> delivery latency: p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
              f"max {latencies[-1]:.1f} ms")  # fmt: skip
        print(f"  service CPU {service_cpu / N * 1e6:,.0f} µs per delivery "
              f"({service_cpu / finished:.0%} of a core)")  # fmt: skip
        verdict = "met" if p99 < TARGET_P99_MS else "NOT met"
        print(f"  target p99 < {TARGET_P99_MS:.0f} ms: {verdict}")
    finally:
        service.terminate()
        await asyncio.wait_for(service.wait(), 30)
        await runner.cleanup()
        await nc.close()


async def main() -> None:
    with nats_and_postgres() as (nats_url, database_url):
        await run(nats_url, database_url)


if __name__ == "__main__":
    loop.run(main())  # the service runs on the same loop (uvloop where installed)
