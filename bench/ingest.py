"""Metric ingestion on the embedded stack: the raw ceiling, Axonal end to end, read-back.

Starts a stack in a temporary home (``axonal up --detach``), then measures:
  (a) raw ceiling   JetStream publish of the batches + a bare consumer (json.loads, asyncpg
                    COPY into a table shaped like ``tracking.metric_points``, ack after commit)
  (b) Axonal        the same points from ``axonal.tracking.log_metrics`` in a job process
                    (as the agent starts it) to rows queryable in ``tracking.metric_points``
  (c) read-back     a 100,000-point series downsampled to 1,000 points over RPC (median of 10)
  (d) crash         SIGKILL the tracking service while a million points are being ingested;
                    the supervisor restarts it; counts the distinct and total rows
  (e) bus auth      the same batches published by a run (its NATS user ``run``, whose
                    permissions the server checks on every publish) to a nats-server with the
                    platform's users, and anonymously to one without, alternating
Prints points/s, the ratio b/a and the read time against the targets (b >= 100,000 points/s,
b/a >= 0.9, read-back < 100 ms, bus authentication <= 5% of publish throughput).
Run: ``make bench``.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import signal
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import nats
from nats.js.api import ConsumerConfig

from axonal_bus.provision import provision
from axonal_events import RunStatus, RunStatusChanged, Subjects, new_event
from axonal_events.access import ADMIN_USER, RUN_USER, all_permissions, users_config
from axonal_stack.nats_server import NatsServer
from axonal_stack.settings import StackPaths
from axonal_stack.users import admin_url

sys.path.insert(0, str(Path(__file__).parent))
from control_plane import cli

POINTS = 1_000_000
PER_BATCH = 5_000
READ_POINTS = 100_000
NS = "axonal"
RAW_TABLE = """
CREATE TABLE IF NOT EXISTS bench_raw (
    run_uuid text NOT NULL, name text NOT NULL, step bigint NOT NULL,
    value double precision NOT NULL, at timestamptz NOT NULL,
    PRIMARY KEY (run_uuid, name, step)
) PARTITION BY HASH (run_uuid);
"""


def payloads(run_uuid: str, total: int) -> list[bytes]:
    at = datetime.now(UTC).isoformat()
    out = []
    for start in range(0, total, PER_BATCH):
        points = [
            {"name": "loss", "step": s, "value": s * 1e-3, "at": at}
            for s in range(start, min(total, start + PER_BATCH))
        ]
        out.append(json.dumps({"run_uuid": run_uuid, "points": points}).encode())
    return out


async def publish(js, subject: str, batches: list[bytes]) -> None:
    for i in range(0, len(batches), 16):  # 16 publishes in flight
        await asyncio.gather(
            *(
                js.publish(subject, data, headers={"Nats-Msg-Id": uuid.uuid4().hex})
                for data in batches[i : i + 16]
            )
        )


async def created(js, run_uuid: str) -> None:
    """The ``run.created`` event the scheduler would send (the tracking service waits for it)."""
    data = RunStatusChanged(
        run_uuid=run_uuid,
        project="bench/ingest",
        status=RunStatus.CREATED,
        occurred_at=datetime.now(UTC),
    )
    event = new_event(data, source="/axonal/bench", project="bench/ingest")
    await js.publish(Subjects(NS).event(event.event_type), event.to_json())


async def count(pool: asyncpg.Pool, table: str, run_uuid: str) -> int:
    return int(await pool.fetchval(f"SELECT count(*) FROM {table} WHERE run_uuid = $1", run_uuid))


async def wait_rows(pool: asyncpg.Pool, table: str, run_uuid: str, total: int) -> None:
    while await count(pool, table, run_uuid) < total:  # noqa: ASYNC110 - rows are the signal
        await asyncio.sleep(0.05)


async def raw_ceiling(nc, pool: asyncpg.Pool) -> float:
    js = nc.jetstream()
    await pool.execute(RAW_TABLE)
    for i in range(16):
        await pool.execute(
            f"CREATE TABLE IF NOT EXISTS bench_raw_{i} PARTITION OF bench_raw "
            f"FOR VALUES WITH (MODULUS 16, REMAINDER {i})"
        )
    run_uuid = uuid.uuid4().hex
    batches = payloads(run_uuid, POINTS)
    subject = f"{NS}.ingest.bench_raw.{run_uuid}"
    sub = await js.pull_subscribe(
        subject, durable=f"bench-raw-{run_uuid[:8]}", stream="AXONAL_INGEST",
        config=ConsumerConfig(max_ack_pending=64),
    )  # fmt: skip

    async def consume() -> None:
        done = 0
        while done < POINTS:
            for msg in await sub.fetch(8, timeout=10):
                doc = json.loads(msg.data)
                rows = [
                    (
                        doc["run_uuid"],
                        p["name"],
                        p["step"],
                        p["value"],
                        datetime.fromisoformat(p["at"]),
                    )
                    for p in doc["points"]
                ]
                await pool.copy_records_to_table("bench_raw", records=rows)
                await msg.ack()
                done += len(rows)

    start = time.perf_counter()
    await asyncio.gather(publish(js, subject, batches), consume())
    await wait_rows(pool, "bench_raw", run_uuid, POINTS)
    return POINTS / (time.perf_counter() - start)


SDK_JOB = """
from axonal.tracking import log_metrics
for step in range({total}):
    log_metrics(step=step, loss=step * 1e-3)
"""


async def publish_direct(nc, pool: asyncpg.Pool, total: int) -> str:
    """Points published straight to the bus (set-up for the read-back and crash phases)."""
    js = nc.jetstream()
    run_uuid = uuid.uuid4().hex
    await created(js, run_uuid)
    await publish(js, f"{NS}.ingest.metrics.{run_uuid}", payloads(run_uuid, total))
    await wait_rows(pool, "tracking.metric_points", run_uuid, total)
    return run_uuid


async def from_sdk(nc, pool: asyncpg.Pool, nats_url: str, total: int) -> tuple[float, float]:
    """A job process logs ``total`` points with the SDK and exits (flushed at exit)."""
    run_uuid = uuid.uuid4().hex
    await created(nc.jetstream(), run_uuid)
    env = {
        **os.environ,
        "AXONAL_NATS_URL": nats_url,
        "AXONAL_NAMESPACE": NS,
        "AXONAL_RUN_UUID": run_uuid,
        "AXONAL_TRACKING_SPOOL": tempfile.mkdtemp(),
    }
    start = time.perf_counter()
    job = await asyncio.create_subprocess_exec(
        sys.executable, "-c", SDK_JOB.format(total=total), env=env
    )
    await job.wait()
    job_seconds = time.perf_counter() - start
    await wait_rows(pool, "tracking.metric_points", run_uuid, total)
    return total / (time.perf_counter() - start), total / job_seconds


async def read_back(nc, run_uuid: str) -> float:
    request = json.dumps({"run_uuids": [run_uuid], "names": ["loss"], "points": 1000}).encode()
    times = []
    for _ in range(10):
        start = time.perf_counter()
        reply = await nc.request(f"{NS}.rpc.tracking.series", request, timeout=10)
        times.append(time.perf_counter() - start)
        doc = json.loads(reply.data)
        assert len(doc["result"]["series"][0]["points"]) == 1000, doc
    return statistics.median(times) * 1000


async def crash(nc, pool: asyncpg.Pool, home: Path) -> tuple[int, int]:
    js = nc.jetstream()
    run_uuid = uuid.uuid4().hex
    await created(js, run_uuid)
    await publish(js, f"{NS}.ingest.metrics.{run_uuid}", payloads(run_uuid, POINTS))
    while not await count(pool, "tracking.metric_points", run_uuid):  # noqa: ASYNC110
        await asyncio.sleep(0.01)
    state = json.loads((home / "stack.json").read_text())
    os.kill(state["services"]["tracking"]["process"]["pid"], signal.SIGKILL)
    deadline = time.monotonic() + 180
    while await count(pool, "tracking.metric_points", run_uuid) < POINTS:
        if time.monotonic() > deadline:
            break
        await asyncio.sleep(0.2)
    await asyncio.sleep(2)  # late redeliveries would show up as extra rows
    total = await count(pool, "tracking.metric_points", run_uuid)
    distinct = int(
        await pool.fetchval(
            "SELECT count(DISTINCT step) FROM tracking.metric_points WHERE run_uuid = $1", run_uuid
        )
    )
    return total, distinct


AUTH_PAIRS = 8
AUTH_POINTS = 1_000_000


async def publish_rate(url: str, user: str | None, password: str | None) -> float:
    """Points/s a run publishes (JetStream acks awaited) to ``url`` as ``user``."""
    inbox = Subjects(NS).inbox_prefix(RUN_USER) if user else "_INBOX"  # as the SDK does
    nc = await nats.connect(url, user=user, password=password, inbox_prefix=inbox)
    try:
        batches = payloads(uuid.uuid4().hex, AUTH_POINTS)
        start = time.perf_counter()
        await publish(nc.jetstream(), f"{NS}.ingest.metrics.{uuid.uuid4().hex}", batches)
        return AUTH_POINTS / (time.perf_counter() - start)
    finally:
        await nc.close()


async def bus_auth_cost(folder: Path) -> tuple[float, float, float]:
    """Median publish rates with the platform's NATS users and without any, and the median
    of each pair's cost (``AUTH_PAIRS`` alternating pairs, each server fresh and provisioned
    alike: a pair's two sends are seconds apart, so the machine's drift cancels out)."""
    subjects = Subjects(NS)
    passwords = {user: secrets.token_urlsafe(16) for user in all_permissions(subjects)}
    secured = NatsServer(folder / "secured", extra_config=users_config(subjects, passwords))
    open_bus = NatsServer(folder / "open")
    for server in (secured, open_bus):
        (server.data_dir).mkdir(parents=True, exist_ok=True)
        server.start()
    try:
        admin = await nats.connect(secured.url, user=ADMIN_USER, password=passwords[ADMIN_USER])
        anonymous = await nats.connect(open_bus.url)
        for nc in (admin, anonymous):
            await provision(nc.jetstream(), subjects)
            await nc.close()
        with_users, without = [], []
        for pair in range(AUTH_PAIRS):
            runs = [
                (with_users, secured.url, RUN_USER, passwords[RUN_USER]),
                (without, open_bus.url, None, None),
            ]
            for found, url, user, password in runs if pair % 2 == 0 else reversed(runs):
                found.append(await publish_rate(url, user, password))
    finally:
        secured.stop()
        open_bus.stop()
    costs = [1 - checked / free for checked, free in zip(with_users, without, strict=True)]
    return statistics.median(with_users), statistics.median(without), statistics.median(costs)


async def measure(home: Path, nats_url: str, database_url: str) -> None:
    nc = await nats.connect(nats_url)
    pool = await asyncpg.create_pool(database_url, min_size=2, max_size=4)
    try:
        await publish_direct(nc, pool, 20_000)  # warm-up
        raw = await raw_ceiling(nc, pool)
        end_to_end, job_rate = await from_sdk(nc, pool, nats_url, POINTS)
        read_run = await publish_direct(nc, pool, READ_POINTS)
        read_ms = await read_back(nc, read_run)
        total, distinct = await crash(nc, pool, home)
    finally:
        await pool.close()
        await nc.close()
    with_users, without_users, auth_cost = await bus_auth_cost(home / "bus-auth")
    ratio = end_to_end / raw
    print(f"metric ingestion on the embedded stack, {POINTS:,} points in batches of {PER_BATCH:,}")
    print(f"  (a) raw ceiling (publish + COPY)   {raw:12,.0f} points/s")
    print(f"  (b) Axonal, SDK to rows           {end_to_end:12,.0f} points/s   b/a = {ratio:.2f}")
    print(f"      the job process alone (log + flush at exit) {job_rate:10,.0f} points/s")
    print(f"  (c) read-back {READ_POINTS:,} -> 1,000 points  {read_ms:8.1f} ms (median of 10)")
    print(f"  (d) SIGKILL mid-ingest: {total:,} rows, {distinct:,} distinct (sent {POINTS:,})")
    print(
        f"  (e) a run's publishes with NATS users {with_users:10,.0f} points/s, without "
        f"{without_users:,.0f} (medians of {AUTH_PAIRS} pairs): cost {auth_cost:+.1%} "
        "(median of the pairs' costs)"
    )
    print(f"  MLflow log_batch ~4,400 points/s: {end_to_end / 4400:.0f}x")
    ok = [
        end_to_end >= 100_000,
        ratio >= 0.9,
        read_ms < 100,
        total == distinct == POINTS,
        auth_cost <= 0.05,
    ]
    names = [
        "b >= 100,000/s",
        "b/a >= 0.9",
        "read-back < 100 ms",
        "crash: exactly once",
        "bus auth <= 5%",
    ]
    print(
        "  targets: "
        + ", ".join(f"{n} {'met' if k else 'MISSED'}" for n, k in zip(names, ok, strict=True))
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        cli(home, "up", "--detach")
        try:
            status = cli(home, "status", "--json")
            nats_url = admin_url(StackPaths(home).nats_users, status["nats_url"])
            asyncio.run(measure(home, nats_url, status["database_url"]))
        finally:
            cli(home, "down")


if __name__ == "__main__":
    main()
