"""A project with low ingest rates: the unmodified Langfuse SDK and the Axonal SDK are answered
429 with ``Retry-After`` along the way, wait, send again, and every span and point they sent is
stored exactly once."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import httpx
import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # the embedded stack

PROJECT = ("acme", "limited")
TRACES, CHILDREN = 30, 2
POINTS = 3000

LANGFUSE_SCRIPT = r"""
import json, logging, sys
from langfuse import Langfuse

class Count(logging.Handler):
    throttled = failed = 0
    def emit(self, record):
        text = record.getMessage()
        if "Transient error" in text and "Too Many Requests" in text:
            Count.throttled += 1
        if text.startswith("Failed to export"):
            Count.failed += 1

logging.getLogger("opentelemetry").addHandler(Count())
lf = Langfuse()
traces, children = int(sys.argv[1]), int(sys.argv[2])
ids = []
for t in range(traces):
    with lf.start_as_current_observation(name=f"request-{t}") as root:
        for c in range(children):
            with lf.start_as_current_observation(name=f"step-{c}", as_type="tool") as step:
                step.update(output=c)
        ids.append((lf.get_current_trace_id(), root.id))
lf.flush()
lf.shutdown()
print(json.dumps({"traces": ids, "throttled": Count.throttled, "failed": Count.failed}))
"""

AXONAL_SCRIPT = r"""
import json, sys
from axonal import tracking
total = int(sys.argv[2])
run = tracking.init(sys.argv[1], "rate-limited")
for step in range(total):
    tracking.log_metrics(step=step, loss=1 / (step + 1))
    if step % 400 == 399:
        tracking._writer.flush(30)  # a batch per 400 points: several requests
writer = tracking._writer
tracking.end()
print(json.dumps({"run": run.uuid, "throttled": writer.throttled}))
"""


def _run(code: str, env: dict[str, str], *args: str) -> dict[str, Any]:
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("LANGFUSE_", "OTEL_"))}
    clean = {k: v for k, v in clean.items() if not k.startswith("AXONAL_")}
    result = subprocess.run(
        [sys.executable, "-c", code, *args],
        env=clean | env,
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return found


@pytest.fixture(scope="module")
def limited(stack: RunningStack) -> dict[str, str]:
    """A project of 20 spans and 500 points per second; its API key's Langfuse variables."""
    owner, name = PROJECT
    with stack.http(timeout=10) as api:
        reply = api.post("/api/v1/projects", json={"owner": owner, "name": name})
        assert reply.status_code in (201, 409), reply.text
        limits = {"spans_per_second": 20, "points_per_second": 500}
        reply = api.put(f"/api/v1/projects/{owner}/{name}/quotas", json=limits)
        assert reply.status_code == 200, reply.text
        assert reply.json()["quotas"] == {**limits, "concurrent_runs": None, "storage_bytes": None}
    created = stack.cli("keys", "create", "-p", f"{owner}/{name}", "--json")
    assert created.returncode == 0, created.stderr
    env: dict[str, str] = json.loads(created.stdout)["env"]
    return env


def test_the_langfuse_sdk_backs_off_and_loses_no_span(limited: dict[str, str]) -> None:
    env = limited | {"LANGFUSE_FLUSH_AT": "10", "LANGFUSE_FLUSH_INTERVAL": "0.1"}
    sent = _run(LANGFUSE_SCRIPT, env, str(TRACES), str(CHILDREN))
    assert sent["throttled"] > 0, "the api never answered 429"
    assert sent["failed"] == 0
    auth = (limited["LANGFUSE_PUBLIC_KEY"], limited["LANGFUSE_SECRET_KEY"])
    with httpx.Client(base_url=limited["LANGFUSE_BASE_URL"], auth=auth, timeout=10) as http:
        for trace_id, root_id in sent["traces"]:

            def stored(trace_id: str = trace_id) -> list[dict[str, Any]] | None:
                reply = http.get(f"/api/public/traces/{trace_id}")
                if reply.status_code != 200:
                    return None
                found: list[dict[str, Any]] = reply.json()["observations"]
                return found if len(found) >= 1 + CHILDREN else None

            observations = wait_for_sync(stored, timeout=60, message=f"trace {trace_id}")
            ids = [o["id"] for o in observations]
            assert len(ids) == len(set(ids)) == 1 + CHILDREN  # each exactly once
            assert root_id in ids
    print(f"langfuse SDK: {TRACES * (1 + CHILDREN)} spans, {sent['throttled']} answers 429")


def test_the_axonal_sdk_backs_off_and_loses_no_point(
    stack: RunningStack, limited: dict[str, str], tmp_path
) -> None:
    owner, name = PROJECT
    env = {
        "AXONAL_HOME": str(tmp_path),
        "AXONAL_API_URL": stack.api_url,
        "AXONAL_API_TOKEN": stack.admin_token,
    }
    sent = _run(AXONAL_SCRIPT, env, f"{owner}/{name}", str(POINTS))
    assert sent["throttled"] > 0, "the api never answered 429"
    with stack.http(timeout=10) as api:

        def stored() -> dict[str, Any] | None:
            path = f"/api/v1/{owner}/{name}/runs/{sent['run']}/metrics"
            reply = api.get(path, params={"name": "loss", "points": 100_000})
            series = reply.json()["series"] if reply.status_code == 200 else []
            return series[0] if series and series[0]["total"] >= POINTS else None

        series = wait_for_sync(stored, timeout=60, message=f"{POINTS} points stored")
    assert series["total"] == POINTS  # each step once
    print(f"axonal SDK: {POINTS} points, {sent['throttled']} answers 429")
