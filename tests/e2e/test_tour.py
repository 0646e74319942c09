"""The README's tour, run against the embedded stack exactly as a user runs it."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from axonal_testing.stack import stack_env
from axonal_testing.waiting import wait_for_sync

EXAMPLE = Path(__file__).parents[2] / "examples" / "tour.py"


def test_tour_example_creates_a_project_and_sees_its_event(stack):
    result = subprocess.run(
        [sys.executable, str(EXAMPLE), "tour-org", "tour-project"],
        env=stack_env(stack.home, stack.env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    project_id, event_type, name = result.stdout.split()
    assert event_type == "axonal.project.created"
    assert name == "tour-project"
    assert len(project_id) == 36


HELLO = Path(__file__).parents[2] / "examples" / "hello.yaml"


def test_hello_example_runs_to_success_with_its_logs(stack):
    result = stack.cli("run", "-f", str(HELLO), "-P", "greeting=hi", "-p", "tour/hello", "--watch")
    assert result.returncode == 0, result.stdout + result.stderr
    listed = json.loads(stack.cli("ops", "ls", "-p", "tour/hello", "--json").stdout)
    runs = listed["runs"] if isinstance(listed, dict) else listed
    assert [r["status"] for r in runs] == ["succeeded"]
    logs = stack.cli("ops", "logs", runs[0]["uuid"], "-p", "tour/hello")
    assert "hi from axonal, run" in logs.stdout


DAG = Path(__file__).parents[2] / "examples" / "train-evaluate.yaml"
TRACE = Path(__file__).parents[2] / "examples" / "langfuse_trace.py"


def _json(stack, *args: str):
    result = stack.cli(*args, "--json", timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    return json.loads(result.stdout)


def test_tour_dag_jobs_log_metrics_read_back_with_the_cli(stack):
    project = ("-p", "tour/dag")
    done = stack.cli("run", "-f", str(DAG), "-P", "epochs=30", *project, "--watch", timeout=180)
    assert done.returncode == 0, done.stdout + done.stderr
    runs = _json(stack, "ops", "ls", *project)["runs"]
    assert [(r["kind"], r["status"]) for r in runs if r["kind"] == "dag"] == [("dag", "succeeded")]
    ops = {r["name"]: r for r in runs if r["kind"] == "job"}
    assert {ops[name]["status"] for name in ("train", "evaluate")} == {"succeeded"}
    assert ops["train"]["outputs"] == {"loss": 1 / 30}

    def points(uuid: str) -> dict[str, int]:
        series = _json(stack, "ops", "metrics", uuid, *project)["series"]
        return {s["name"]: s["total"] for s in series}

    assert wait_for_sync(
        lambda: points(ops["train"]["uuid"]) == {"loss": 30, "accuracy": 30},
        timeout=30,
        message="30 points of loss and accuracy",
    )
    assert wait_for_sync(lambda: points(ops["evaluate"]["uuid"]) == {"val_loss": 10}, timeout=30)
    table = stack.cli("ops", "metrics", ops["train"]["uuid"], *project)
    assert "loss" in table.stdout
    assert "accuracy" in table.stdout


def test_tour_langfuse_sdk_trace_is_shown_with_its_cost(stack):
    created = stack.cli("project", "create", "acme/tour-chat")
    assert created.returncode == 0, created.stderr
    keys = _json(stack, "keys", "create", "-p", "acme/tour-chat")
    sent = subprocess.run(
        [sys.executable, str(TRACE)],
        env=stack_env(stack.home, stack.env) | keys["env"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert sent.returncode == 0, sent.stderr
    trace_id = sent.stdout.strip()

    def stored():
        result = stack.cli("traces", "get", trace_id, "-p", "acme/tour-chat", "--json")
        found = json.loads(result.stdout) if result.returncode == 0 else None
        return found if found and len(found["observations"]) == 3 else None

    trace = wait_for_sync(stored, timeout=30, message=f"trace {trace_id} with 3 observations")
    # gpt-4o-mini: 1,000 input tokens at $0.15 and 500 output tokens at $0.60 per million
    assert trace["trace"]["total_cost"] == pytest.approx(0.00045)
    shown = stack.cli("traces", "get", trace_id, "-p", "acme/tour-chat")
    assert "llm" in shown.stdout
    assert "0.00045" in shown.stdout
