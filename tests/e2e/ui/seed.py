"""Real data for the UI's end-to-end tests, sent the way users send it: the CLI runs
polyaxonfiles whose jobs log with the SDK, the unmodified Langfuse SDK sends a trace, and a
webhook points at a receiver that answers 503 until a test mends it, so its deliveries fail."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from axonal_testing.receiver import Receiver
from axonal_testing.stack import RunningStack, stack_env
from axonal_testing.waiting import wait_for_sync

HERE = Path(__file__).parent
TRACE_SCRIPT = HERE.parents[2] / "examples" / "langfuse_trace.py"
OWNER, NAME = "ui", "demo"
PROJECT = f"{OWNER}/{NAME}"
#: The project of the automation rule (the runs it starts stay out of the demo's runs list).
AUTOMATED = f"{OWNER}/automated"
HELLO = HERE.parents[2] / "examples" / "hello.yaml"
#: A connection to the same receiver, with an alert route of every succeeded run to it.
CONNECTION = "receiver"


@dataclass(frozen=True)
class Seeded:
    """What was sent, by id, for the tests to look for."""

    dag: dict[str, Any]
    ops: dict[str, dict[str, Any]]  # the DAG's jobs by name
    sweep: dict[str, Any]
    trials: list[dict[str, Any]]
    trace_id: str
    webhook_id: str
    automation_id: str

    @property
    def base(self) -> str:
        return f"projects/{OWNER}/{NAME}"


def _run(stack: RunningStack, file: str) -> None:
    done = stack.cli("run", "-f", str(HERE / file), "-p", PROJECT, "--watch", timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr


def _trace(stack: RunningStack) -> str:
    keys = stack.cli_json("keys", "create", "-p", PROJECT, "--note", "ui tests")
    sent = subprocess.run(
        [sys.executable, str(TRACE_SCRIPT)],
        env=stack_env(stack.home, stack.env) | keys["env"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert sent.returncode == 0, sent.stderr
    trace_id = sent.stdout.strip()

    def stored() -> bool:
        result = stack.cli("traces", "get", trace_id, "-p", PROJECT, "--json")
        return result.returncode == 0 and len(json.loads(result.stdout)["observations"]) == 3

    wait_for_sync(stored, timeout=60, message=f"trace {trace_id} stored")
    score = {"traceId": trace_id, "name": "correctness", "value": 0.9, "comment": "checked"}
    auth = (keys["env"]["LANGFUSE_PUBLIC_KEY"], keys["env"]["LANGFUSE_SECRET_KEY"])
    api_url = str(stack.status["api_url"])
    httpx.post(f"{api_url}/api/public/scores", json=score, auth=auth, timeout=30).raise_for_status()
    return trace_id


def _automation(stack: RunningStack) -> str:
    """A rule that starts a run when a warehouse says a dataset changed, fired once."""
    created = stack.cli("project", "create", AUTOMATED)
    assert created.returncode == 0, created.stderr
    rule = stack.cli_json(
        "automations", "create", "refresh", "--external", "--on", "dataset.updated",
        "-f", str(HELLO), "-P", "greeting=refreshed", "-p", AUTOMATED,
    )  # fmt: skip
    data = json.dumps({"uri": "s3://warehouse/sales"})
    sent = stack.cli("events", "publish", "dataset.updated", "-d", data, "-p", AUTOMATED)
    assert sent.returncode == 0, sent.stdout + sent.stderr

    def started() -> bool:
        firings = stack.cli_json("automations", "firings", str(rule["id"]), "-p", AUTOMATED)
        return any(f.get("run_uuid") for f in firings["firings"])

    wait_for_sync(started, timeout=60, message="the automation started a run")
    return str(rule["id"])


def seed(stack: RunningStack, receiver: Receiver) -> Seeded:
    """Send everything; return once it is all stored."""
    created = stack.cli("project", "create", PROJECT)
    assert created.returncode == 0, created.stderr
    url = receiver.url("/hooks/axonal")
    hook = stack.cli_json("webhooks", "create", url, "-e", "run.succeeded", "-p", PROJECT)
    stack.cli_json("connections", "create", CONNECTION, "webhook", "--url", url, "-p", PROJECT)
    stack.cli_json(
        "connections", "routes", "create", CONNECTION, "-e", "run.succeeded", "-p", PROJECT
    )
    _run(stack, "demo-dag.yaml")
    _run(stack, "demo-sweep.yaml")
    runs = stack.cli_json("ops", "ls", "-p", PROJECT)["runs"]
    dag = next(r for r in runs if r["kind"] == "dag")
    ops = {r["name"]: r for r in runs if r.get("pipeline_uuid") == dag["uuid"]}
    sweep = next(r for r in runs if r["kind"] == "matrix")
    trials = [r for r in runs if r.get("pipeline_uuid") == sweep["uuid"]]
    return Seeded(dag, ops, sweep, trials, _trace(stack), str(hook["id"]), _automation(stack))
