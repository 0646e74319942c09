"""Real data for the UI's end-to-end tests, sent the way users send it: the CLI runs
polyaxonfiles whose jobs log with the SDK, the unmodified Langfuse SDK sends a trace, and a
webhook points at a receiver that answers 503 until a test mends it, so its deliveries fail."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import httpx

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


class Receiver:
    """A webhook receiver on loopback that answers ``status`` to every POST."""

    def __init__(self) -> None:
        self.status = 503
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                self.send_response(receiver.status)
                self.end_headers()
                self.wfile.write(b"receiver says %d" % receiver.status)

            def log_message(self, *_: object) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hooks/axonal"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


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


def _cli_json(stack: RunningStack, *args: str) -> Any:
    result = stack.cli(*args, "--json", timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def _run(stack: RunningStack, file: str) -> None:
    done = stack.cli("run", "-f", str(HERE / file), "-p", PROJECT, "--watch", timeout=240)
    assert done.returncode == 0, done.stdout + done.stderr


def _trace(stack: RunningStack) -> str:
    keys = _cli_json(stack, "keys", "create", "-p", PROJECT, "--note", "ui tests")
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
    rule = _cli_json(
        stack, "automations", "create", "refresh", "--external", "--on", "dataset.updated",
        "-f", str(HELLO), "-P", "greeting=refreshed", "-p", AUTOMATED,
    )  # fmt: skip
    data = json.dumps({"uri": "s3://warehouse/sales"})
    sent = stack.cli("events", "publish", "dataset.updated", "-d", data, "-p", AUTOMATED)
    assert sent.returncode == 0, sent.stdout + sent.stderr

    def started() -> bool:
        firings = _cli_json(stack, "automations", "firings", str(rule["id"]), "-p", AUTOMATED)
        return any(f.get("run_uuid") for f in firings["firings"])

    wait_for_sync(started, timeout=60, message="the automation started a run")
    return str(rule["id"])


def seed(stack: RunningStack, receiver: Receiver) -> Seeded:
    """Send everything; return once it is all stored."""
    created = stack.cli("project", "create", PROJECT)
    assert created.returncode == 0, created.stderr
    hook = _cli_json(
        stack, "webhooks", "create", receiver.url, "-e", "run.succeeded", "-p", PROJECT
    )
    _cli_json(stack, "connections", "create", CONNECTION, "webhook", "--url", receiver.url,
              "-p", PROJECT)  # fmt: skip
    _cli_json(stack, "connections", "routes", "create", CONNECTION, "-e", "run.succeeded",
              "-p", PROJECT)  # fmt: skip
    _run(stack, "demo-dag.yaml")
    _run(stack, "demo-sweep.yaml")
    runs = _cli_json(stack, "ops", "ls", "-p", PROJECT)["runs"]
    dag = next(r for r in runs if r["kind"] == "dag")
    ops = {r["name"]: r for r in runs if r.get("pipeline_uuid") == dag["uuid"]}
    sweep = next(r for r in runs if r["kind"] == "matrix")
    trials = [r for r in runs if r.get("pipeline_uuid") == sweep["uuid"]]
    return Seeded(dag, ops, sweep, trials, _trace(stack), str(hook["id"]), _automation(stack))
