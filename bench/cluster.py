"""The platform as a cluster on one machine, against one node, in the same run.

Starts the embedded stack twice in temporary homes: ``axonal up --detach`` (one nats-server,
one replica of each service) and ``axonal up --detach --cluster`` (three JetStream nodes,
streams with three replicas, two replicas of each service). On each it measures
  (a) metric ingest   ``POINTS`` points published to ``ingest.metrics.<run>`` as batches of
                      5,000 (16 in flight), until every row is in ``tracking.metric_points``
  (b) OTLP spans      ``traces.SPANS`` spans sent to ``/api/public/otel/v1/traces`` (4 requests
                      in flight, spread over the api replicas) until every span is stored
and prints both figures and the ratio cluster / single node. This machine's two cores bound
the cluster (six server processes and twice the services share them): the figures are for
the record, not targets.
Run: ``.venv/bin/python bench/cluster.py``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import httpx
import nats

from axonal_stack.ports import free_port
from axonal_testing.stack import RunningStack, start_stack, stop_stack

sys.path.insert(0, str(Path(__file__).parent))
from ingest import NS, created, payloads, publish, wait_rows
from traces import IN_FLIGHT, PROTOBUF, SPANS, batches, project_key, wait_stored

POINTS = 500_000


async def metric_ingest(stack: RunningStack, pool: asyncpg.Pool) -> float:
    """Points per second, from the first publish to the last row stored."""
    nc = await nats.connect(servers=stack.nats_url.split(","))
    try:
        js = nc.jetstream()
        run_uuid = uuid.uuid4().hex
        await created(js, run_uuid)
        bodies = payloads(run_uuid, POINTS)
        start = time.perf_counter()
        await publish(js, f"{NS}.ingest.metrics.{run_uuid}", bodies)
        await wait_rows(pool, "tracking.metric_points", run_uuid, POINTS)
        return POINTS / (time.perf_counter() - start)
    finally:
        await nc.close()


async def spans(stack: RunningStack, pool: asyncpg.Pool) -> float:
    """Spans per second, from the first request to every span stored."""
    apis = [s["url"] for s in stack.status["services"] if s.get("url")]  # the api replicas
    project_id, auth = await project_key(apis[0], stack.admin_token)
    clients = [httpx.AsyncClient(base_url=url, auth=auth, timeout=60) for url in apis]
    nc = await nats.connect(servers=stack.nats_url.split(","))
    try:
        pending = iter(batches(uuid.uuid4().hex[:8]))

        async def worker(http: httpx.AsyncClient) -> None:
            for body in pending:
                reply = await http.post(
                    "/api/public/otel/v1/traces", content=body, headers=PROTOBUF
                )
                if reply.status_code != 200:
                    raise RuntimeError(f"the api answered {reply.status_code}: {reply.text}")

        start = time.perf_counter()
        await asyncio.gather(*(worker(clients[n % len(clients)]) for n in range(IN_FLIGHT)))
        done = await wait_stored(nc.jetstream(), pool, project_id, SPANS)
        return SPANS / (done - start)
    finally:
        await nc.close()
        for client in clients:
            await client.aclose()


async def measure(stack: RunningStack) -> tuple[float, float]:
    pool = await asyncpg.create_pool(stack.database_url, min_size=1, max_size=2)
    try:
        return await metric_ingest(stack, pool), await spans(stack, pool)
    finally:
        await pool.close()


def on(cluster: bool) -> tuple[float, float]:
    """The figures on a fresh stack (free ports: another stack may run on the defaults)."""
    env = {f"AXONAL_{name}_PORT": str(free_port()) for name in ("NATS", "POSTGRES", "API")}
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        stack = start_stack(home, env, cluster=cluster)
        try:
            return asyncio.run(measure(stack))
        finally:
            stop_stack(home, env)


def main() -> None:
    single = on(cluster=False)
    cluster = on(cluster=True)
    print(f"{'':34}{'single node':>14}{'cluster':>14}{'ratio':>8}")
    for name, one, three in (
        (f"metric ingest ({POINTS:,} points/s)", single[0], cluster[0]),
        (f"OTLP spans ({SPANS:,} spans/s)", single[1], cluster[1]),
    ):
        print(f"{name:34}{one:>14,.0f}{three:>14,.0f}{three / one:>8.2f}")
    print("cluster: 3 JetStream nodes (streams R3), 2 replicas of every service, on 2 cores")


if __name__ == "__main__":
    main()
