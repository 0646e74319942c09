"""The run lifecycle on the embedded stack, driven like a user: axonal run/axonal ops
with --json, and the HTTP api where it is simpler.

Jobs (success, exit code, live logs) and DAGs (refs, trigger policies, conditions, stop). The
local executor runs each job's command on this machine. Termination, stop, queues and matrices
are in test_run_control.py.
"""

from __future__ import annotations

import shlex
import sys
from typing import Any

import psutil
import pytest

from axonal_testing.waiting import wait_for_sync

from .lifecycle_support import (
    User,
    _processes_of,
    at,
    dag,
    dag_op,
    job,
    job_run,
    parse_json_stream,
    sh_run,
    shell,
)

pytestmark = pytest.mark.slow  # real processes on the embedded stack


# -- jobs ------------------------------------------------------------------------------------


def test_job_exit_zero_succeeds(user: User) -> None:
    uuid = user.run(job([sys.executable, "-c", "print('all good')"]))
    run = user.wait_done(uuid)
    assert run["status"] == "succeeded", run
    assert run["kind"] == "job"
    assert run["started_at"]
    assert run["finished_at"]
    assert "all good" in user.log_lines(uuid)
    assert user.statuses(uuid)[-1] == "succeeded"


def test_a_job_logs_metrics_that_show_on_its_run(user: User) -> None:
    script = (
        "from axonal.tracking import log_metrics\n"
        "for step in range(200):\n"
        "    log_metrics(step=step, loss=1 / (step + 1), accuracy=step / 200)\n"
    )
    uuid = user.run(job([sys.executable, "-c", script]))
    assert user.wait_done(uuid)["status"] == "succeeded"

    def stored() -> dict[str, Any] | None:
        found = user.cli_json("ops", "metrics", uuid, "--points", "50")
        return found if sum(s["total"] for s in found["series"]) == 400 else None

    series = {s["name"]: s for s in wait_for_sync(stored, message="400 points")["series"]}
    assert len(series["loss"]["points"]) == 50
    assert series["loss"]["points"][-1]["step"] == 199
    assert series["loss"]["points"][0]["max"] == 1.0
    assert series["accuracy"]["points"][-1]["value"] == 199 / 200


def test_job_exit_three_fails_with_code_and_last_lines(user: User) -> None:
    uuid = user.run(shell("for i in 1 2 3 4; do echo line-$i; done; echo boom >&2; exit 3"))
    run = user.wait_done(uuid)
    assert run["status"] == "failed", run
    assert run["reason"] == "ExitCode", run
    first, *last_lines = run["message"].splitlines()
    assert first == "exit code 3", run
    assert last_lines[-2:] == ["line-4", "boom"], run
    got = user.cli_json("ops", "get", uuid)
    assert (got["status"], got["message"]) == ("failed", run["message"])


def test_logs_are_readable_while_running_and_after(user: User) -> None:
    go = user.folder / "go"
    script = (
        f"echo first-line; i=0; while [ ! -f {shlex.quote(str(go))} ] && [ $i -lt 600 ]; "
        "do sleep 0.05; i=$((i+1)); done; echo second-line; echo third-line"
    )
    uuid = user.run(shell(script))

    def first_line_logged() -> bool:
        result = user.stack.cli("ops", "logs", uuid, "-p", user.project, "--json", timeout=30)
        lines = [doc["line"] for doc in parse_json_stream(result.stdout)]
        return "first-line" in lines

    wait_for_sync(first_line_logged, timeout=30, message="first line while running")
    assert user.get(uuid)["status"] == "running"  # type: ignore[index]
    assert "second-line" not in user.log_lines(uuid, so_far=True)
    go.touch()
    assert user.wait_done(uuid)["status"] == "succeeded"

    def all_lines() -> list[str] | None:
        # Logs travel on their own stream (INGEST): the last batch may land just after the
        # final status, so read until it is there rather than once.
        result = user.stack.cli("ops", "logs", uuid, "-p", user.project, "--json", timeout=30)
        lines = [doc["line"] for doc in parse_json_stream(result.stdout)]
        return lines if len(lines) >= 3 else None

    lines = wait_for_sync(all_lines, timeout=20, message="every line stored")
    assert lines == ["first-line", "second-line", "third-line"]


# -- DAGs ------------------------------------------------------------------------------------


def test_dag_passes_an_output_through_ref(user: User) -> None:
    log_x = "from axonal.tracking import log_outputs; log_outputs(x=42)"
    text = dag(
        dag_op(
            "a",
            job_run([sys.executable, "-c", log_x]),
            outputs="outputs: [{name: x, type: int}]",
        ),
        dag_op("b", sh_run("echo b"), "dependencies: [a]"),
        dag_op("c", sh_run("echo c"), "dependencies: [a]"),
        dag_op(
            "d",
            sh_run("echo d-got-{{ x }}"),
            "dependencies: [b, c]",
            "params:",
            "  x: {ref: ops.a, value: outputs.x}",
            inputs="inputs: [{name: x, type: int}]",
        ),
    )
    pipe = user.run(text)
    run = user.wait_done(pipe)
    kids = user.children(pipe)
    assert run["status"] == "succeeded", (run, kids)
    assert (run["kind"], run["children"]) == ("dag", 4)
    assert {name: kid["status"] for name, kid in kids.items()} == dict.fromkeys("abcd", "succeeded")
    assert kids["a"]["outputs"]["x"] == 42
    assert kids["d"]["inputs"]["x"] == 42
    assert "d-got-42" in user.log_lines(kids["d"]["uuid"])
    finished_a = at(kids["a"]["finished_at"])
    for name in "bc":
        assert at(kids[name]["started_at"]) >= finished_a
        assert at(kids["d"]["started_at"]) >= at(kids[name]["finished_at"])


def test_failure_dag_triggers_and_conditions(user: User) -> None:
    text = dag(
        dag_op("a", sh_run("echo failing; exit 1")),
        dag_op("cleanup", sh_run("echo cleaning"), "dependencies: [a]", "trigger: one_failed"),
        dag_op("after", sh_run("echo after"), "dependencies: [a]"),
        dag_op("guarded", sh_run("echo never"), "conditions: '{{ false }}'"),
    )
    pipe = user.run(text)
    run = user.wait_done(pipe)
    kids = user.children(pipe)
    statuses = {name: kid["status"] for name, kid in kids.items()}
    assert statuses == {
        "a": "failed",
        "cleanup": "succeeded",
        "after": "upstream_failed",
        "guarded": "skipped",
    }
    assert "cleaning" in user.log_lines(kids["cleanup"]["uuid"])
    assert user.log_lines(kids["after"]["uuid"]) == []
    # spec §4.2: all children done and one failed => the pipeline failed
    assert run["status"] == "failed", run


def test_stopping_a_dag_stops_its_children(user: User) -> None:
    text = dag(
        dag_op("long", job_run(["sleep", "60"])),
        dag_op("next", sh_run("echo next"), "dependencies: [long]"),
    )
    pipe = user.run(text)
    long = wait_for_sync(
        lambda: (kid := user.children(pipe).get("long")) and kid["status"] == "running" and kid,
        timeout=30,
        message="op long running",
    )
    procs = wait_for_sync(lambda: _processes_of(long["uuid"]), timeout=10, message="sleep 60")
    user.cli_json("ops", "stop", pipe)
    run = user.wait_done(pipe)
    kids = user.children(pipe)
    # spec §4.2: all children stopped => the pipeline stopped
    assert run["status"] == "stopped", (run, kids)
    assert {name: kid["status"] for name, kid in kids.items()} == {
        "long": "stopped",
        "next": "stopped",
    }
    _, alive = psutil.wait_procs(procs, timeout=5)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
