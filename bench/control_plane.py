"""Control-plane latency on the embedded stack: how fast Axonal moves runs along.

Starts a stack in a temporary home (``axonal up --detach``), then over REPS repetitions:
  submit -> running        POST /runs of a no-op job until its ``run.running`` event
  running -> succeeded     ``run.running`` until ``run.succeeded`` (the process is ``true``)
  DAG level                a chain a -> b -> c -> d: each upstream ``run.done`` until the
                           downstream ``run.running``
Times come from the events' own timestamps where both ends are events (scheduler and agent
clocks are the same machine). Prints p50/p95/p99 and the ratio to Polyaxon's ~1 s per DAG
level measured on this machine (shared/reference/baselines.md). Run: ``make bench``.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from datetime import datetime
from pathlib import Path

import httpx
import nats

from axonal_stack.settings import StackPaths
from axonal_stack.users import admin_url

REPS = 50
POLYAXON_DAG_LEVEL = 1.0  # seconds, measured: next op queued at the next agent poll
JOB = """
kind: component
name: noop
run: {kind: job, container: {image: busybox, command: ["true"]}}
"""
CHAIN = """
kind: component
name: chain
run:
  kind: dag
  components:
  - name: noop
    run: {kind: job, container: {image: busybox, command: ["true"]}}
  operations:
  - {name: a, dagRef: noop}
  - {name: b, dagRef: noop, dependencies: [a]}
  - {name: c, dagRef: noop, dependencies: [b]}
  - {name: d, dagRef: noop, dependencies: [c]}
"""


def cli(home: Path, *args: str) -> dict:
    env = {"AXONAL_HOME": str(home), "AXONAL_POSTGRES_DURABLE": "false", "PATH": "/usr/bin:/bin"}
    out = subprocess.run(
        [sys.executable, "-m", "axonal", *args], env=env, capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout) if "--json" in args else {}


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def line(name: str, seconds: list[float]) -> None:
    ms = [s * 1000 for s in seconds]
    print(
        f"  {name:<28} p50 {pct(ms, 0.5):7.1f} ms   p95 {pct(ms, 0.95):7.1f} ms   "
        f"p99 {pct(ms, 0.99):7.1f} ms   (n={len(ms)})"
    )


class Events:
    """Every run event's time, by run uuid and status."""

    def __init__(self) -> None:
        self.times: dict[str, dict[str, float]] = defaultdict(dict)
        self.arrived: dict[str, dict[str, float]] = defaultdict(dict)

    async def on_message(self, msg: nats.aio.msg.Msg) -> None:
        doc = json.loads(msg.data)
        status = doc["type"].removeprefix("axonal.run.")
        run = doc["data"]["run_uuid"]
        self.times[run][status] = datetime.fromisoformat(doc["time"]).timestamp()
        self.arrived[run][status] = time.time()

    async def wait(self, run: str, status: str, timeout: float = 30.0) -> float:
        deadline = time.monotonic() + timeout
        while status not in self.times[run]:
            if time.monotonic() > deadline:
                raise TimeoutError(f"run {run} never reached {status}: {self.times[run]}")
            await asyncio.sleep(0.002)
        return self.times[run][status]


async def measure(api: str, nats_url: str, token: str) -> None:
    nc = await nats.connect(nats_url)
    events = Events()
    await nc.subscribe("axonal.evt.run.>", cb=events.on_message)
    submit_to_running, running_to_done, level = [], [], []
    headers = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=api, timeout=30, headers=headers) as http:
        for _ in range(REPS):
            sent = time.time()
            reply = await http.post("/api/v1/bench/bench/runs", json={"content": JOB})
            reply.raise_for_status()
            run = reply.json()["uuid"]
            running = await events.wait(run, "running")
            done = await events.wait(run, "succeeded")
            submit_to_running.append(running - sent)
            running_to_done.append(done - running)
        for _ in range(max(1, REPS // 3)):
            reply = await http.post("/api/v1/bench/bench/runs", json={"content": CHAIN})
            reply.raise_for_status()
            pipeline = reply.json()["uuid"]
            await events.wait(pipeline, "succeeded", timeout=60)
            children = (await http.get(f"/api/v1/bench/bench/runs?pipeline_uuid={pipeline}")).json()
            by_name = {r["name"]: r["uuid"] for r in children["runs"]}
            for up, down in (("a", "b"), ("b", "c"), ("c", "d")):
                level.append(
                    events.times[by_name[down]]["running"] - events.times[by_name[up]]["done"]
                )
    await nc.close()
    print(f"control plane on the embedded stack, {REPS} no-op jobs, {len(level)} DAG levels")
    line("submit -> running", submit_to_running)
    line("running -> succeeded", running_to_done)
    line("DAG level (done -> running)", level)
    p50 = statistics.median(level)
    ratio = POLYAXON_DAG_LEVEL / p50
    print(f"  Polyaxon ~{POLYAXON_DAG_LEVEL:.1f} s per DAG level: {ratio:,.0f}x faster (p50)")
    submit = statistics.median(submit_to_running)
    print(
        f"  targets: DAG level p50 <= 20 ms {met(p50 <= 0.020)}, "
        f"p99 <= 60 ms {met(pct(level, 0.99) <= 0.060)}; "
        f"submit -> running p50 <= 25 ms {met(submit <= 0.025)}"
    )


def met(ok: bool) -> str:
    return "met" if ok else "MISSED"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        cli(home, "up", "--detach")
        try:
            status = cli(home, "status", "--json")
            nats_url = admin_url(StackPaths(home).nats_users, status["nats_url"])
            token = json.loads((home / "admin.json").read_text())["token"]
            asyncio.run(measure(status["api_url"], nats_url, token))
        finally:
            cli(home, "down")


if __name__ == "__main__":
    main()
