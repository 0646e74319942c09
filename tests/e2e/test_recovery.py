"""Killed services recover with truthful statuses: the agent mid-job, the scheduler mid-DAG.

A stack of its own (this module SIGKILLs its services), driven through the ``axonal`` CLI; the
supervisor restarts what was killed. Runs are polled over HTTP (a CLI call costs a Python start).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from axonal_testing.stack import RunningStack, start_stack, stop_stack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes, supervision and restarts

# a slot is missed when the clock reaches it over half a second late (a restart takes longer)
FAST = {"AXONAL_POSTGRES_DURABLE": "false", "AXONAL_SCHEDULER_SCHEDULE_GRACE": "0.5"}
RUNS = "/api/v1/default/default/runs"
DONE = {"succeeded", "failed", "stopped", "skipped", "upstream_failed"}


@pytest.fixture(scope="module")
def own_stack() -> Iterator[RunningStack]:
    """A stack of this module's own (it kills services), in a home outside pytest's folder.

    PostgreSQL runs as an unprivileged user that must traverse the home's parents, and a
    pytest session starting beside this one resets its base folder (``pytest-of-<user>``) to
    mode 0700.
    """
    home = Path(tempfile.mkdtemp(prefix="axonal-recovery-"))
    try:
        yield start_stack(home, FAST)
    finally:
        stop_stack(home, FAST)
        shutil.rmtree(home, ignore_errors=True)


@pytest.fixture
def http(own_stack: RunningStack) -> Iterator[httpx.Client]:
    with own_stack.http(timeout=10) as client:
        yield client


def submit(stack: RunningStack, polyaxonfile: Path) -> str:
    result = stack.cli("run", "-f", str(polyaxonfile), "--json", timeout=60)
    assert result.returncode == 0, result.stderr
    run_uuid: str = json.loads(result.stdout)["uuid"]
    return run_uuid


def get(http: httpx.Client, path: str, **params: Any) -> Any:
    """The api's JSON answer, or ``None`` while it cannot answer (a service restarting)."""
    try:
        reply = http.get(path, params=params)
    except httpx.HTTPError:
        return None
    return reply.json() if reply.status_code == 200 else None


def run_in(http: httpx.Client, run_uuid: str, statuses: set[str]) -> dict[str, Any] | None:
    run = get(http, f"{RUNS}/{run_uuid}")
    return run if run and run["status"] in statuses else None


def log_lines(http: httpx.Client, run_uuid: str) -> list[str]:
    page = get(http, f"{RUNS}/{run_uuid}/logs")
    return [line["line"] for line in page["lines"]] if page else []


def kill_service(stack: RunningStack, name: str) -> None:
    """SIGKILL ``name`` and wait for the supervisor to start a new process."""
    before = stack.state()["services"][name]
    os.kill(before["process"]["pid"], signal.SIGKILL)

    def restarted() -> bool:
        service = stack.state()["services"][name]
        return service["restarts"] > before["restarts"] and service["process"] is not None

    wait_for_sync(restarted, timeout=60, interval=0.1, message=f"{name} restarted")


def alive(proc: psutil.Process) -> bool:
    try:
        return proc.is_running() and proc.status() != psutil.STATUS_ZOMBIE
    except psutil.Error:
        return False


def processes_with(marker: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        if proc.info["status"] == psutil.STATUS_ZOMBIE:
            continue
        if any(marker in arg for arg in proc.info["cmdline"] or []):
            found.append(proc)
    return found


LOOP = "import time\nprint('working', flush=True)\nwhile True: time.sleep(0.1)"


def long_job(shell: bool, marker: str) -> list[str]:
    """A job that never ends: a Python loop, or ``sh`` waiting for ``sleep`` (two processes)."""
    if shell:
        return ["/bin/sh", "-c", f"echo working; sleep 60; echo {marker}"]
    return [sys.executable, "-c", LOOP, marker]


@pytest.mark.parametrize("shell", [False, True], ids=["python-loop", "sh-sleep"])
def test_killing_the_agent_fails_its_running_job_truthfully(
    own_stack: RunningStack, http: httpx.Client, tmp_path: Path, shell: bool
):
    marker = f"axonal-recovery-{uuid.uuid4().hex}"
    spec = {
        "version": 1.1,
        "kind": "component",
        "name": "long-job",
        "run": {"kind": "job", "container": {"command": long_job(shell, marker)}},
    }
    path = tmp_path / "long.yaml"
    path.write_text(json.dumps(spec))
    run_uuid = submit(own_stack, path)

    def job_processes() -> list[psutil.Process]:
        """The job's processes (the sh form's ``sleep`` child does not name the marker)."""
        found = processes_with(marker)
        for proc in list(found):
            with contextlib.suppress(psutil.Error):
                found += proc.children(recursive=True)
        return found

    started = wait_for_sync(
        lambda: (
            run_in(http, run_uuid, {"running"})
            and len(processes := job_processes()) == 1 + shell
            and processes
        ),
        timeout=30,
        interval=0.1,
        message="the job running",
    )

    wait_for_sync(
        lambda: "working" in log_lines(http, run_uuid), timeout=10, message="logs while it runs"
    )

    kill_service(own_stack, "agent")

    run = wait_for_sync(
        lambda: run_in(http, run_uuid, DONE), timeout=60, interval=0.2, message="the run done"
    )
    assert run["status"] == "failed", run
    assert run["reason"] == "AgentRestarted", run
    assert run["message"] == "the agent restarted; the process it had left was stopped", run
    # The restarted agent killed what its earlier life left behind before reporting.
    wait_for_sync(
        lambda: not [proc for proc in started if alive(proc)], timeout=5, message="no orphan left"
    )
    history = get(http, f"{RUNS}/{run_uuid}/statuses")
    statuses = [change["status"] for change in history["changes"]]
    assert statuses[-1] == "failed"
    assert statuses.count("running") == 1
    assert "working" in log_lines(http, run_uuid)  # kept after the run ended
    # And the restarted agent takes new work.
    quick = tmp_path / "quick.yaml"
    spec["run"]["container"]["command"] = [sys.executable, "-c", "print('after')"]
    quick.write_text(json.dumps(spec))
    after = submit(own_stack, quick)
    done = wait_for_sync(
        lambda: run_in(http, after, DONE), timeout=30, interval=0.1, message="a new job done"
    )
    assert done["status"] == "succeeded", done


def chain_dag(journal: Path, ops: list[str]) -> dict[str, Any]:
    code = (
        "import sys, time\n"
        "with open(sys.argv[1], 'a') as out:\n"
        "    out.write(sys.argv[2] + '\\n')\n"
        "time.sleep(1)\n"
    )
    operations = []
    for index, name in enumerate(ops):
        operation: dict[str, Any] = {
            "name": name,
            "component": {
                "name": name,
                "run": {
                    "kind": "job",
                    "container": {"command": [sys.executable, "-c", code, str(journal), name]},
                },
            },
        }
        if index:
            operation["dependencies"] = [ops[index - 1]]
        operations.append(operation)
    return {
        "version": 1.1,
        "kind": "component",
        "name": "chain",
        "run": {"kind": "dag", "operations": operations},
    }


def test_killing_the_scheduler_mid_dag_runs_every_op_once(
    own_stack: RunningStack, http: httpx.Client, tmp_path: Path
):
    ops = ["first", "second", "third", "fourth"]
    journal = tmp_path / "journal.txt"
    path = tmp_path / "chain.yaml"
    path.write_text(json.dumps(chain_dag(journal, ops)))
    dag_uuid = submit(own_stack, path)

    def running(op: str) -> bool:
        page = get(http, RUNS, pipeline=dag_uuid)
        return bool(page) and any(
            child["name"] == op and child["status"] == "running" for child in page["runs"]
        )

    for op in ("first", "third"):  # killed twice: while an op runs, its report still to come
        wait_for_sync(lambda op=op: running(op), timeout=30, interval=0.05, message=f"{op} running")
        kill_service(own_stack, "scheduler")

    dag = wait_for_sync(
        lambda: run_in(http, dag_uuid, DONE), timeout=60, interval=0.2, message="the DAG done"
    )
    assert dag["status"] == "succeeded", dag
    assert journal.read_text().splitlines() == ops
    dag_statuses = [
        change["status"] for change in get(http, f"{RUNS}/{dag_uuid}/statuses")["changes"]
    ]
    assert dag_statuses.count("succeeded") == 1, dag_statuses
    children = get(http, RUNS, pipeline=dag_uuid)["runs"]
    assert sorted(child["name"] for child in children) == sorted(ops)
    for child in children:
        assert child["status"] == "succeeded", child
        assert child["attempt"] == 1, child
        history = own_stack.cli("ops", "statuses", child["uuid"], "--json")
        assert history.returncode == 0, history.stderr
        statuses = [change["status"] for change in json.loads(history.stdout)["changes"]]
        assert statuses.count("running") == 1, (child["name"], statuses)
        assert statuses.count("succeeded") == 1, (child["name"], statuses)


def test_killing_the_scheduler_mid_sweep_runs_every_trial_once(
    own_stack: RunningStack, http: httpx.Client, tmp_path: Path
):
    journal = tmp_path / "trials.txt"
    code = (
        "import sys, time\n"
        "with open(sys.argv[1], 'a') as out:\n"
        "    out.write(sys.argv[2] + '\\n')\n"
        "time.sleep(0.5)\n"
    )
    spec = {
        "version": 1.1,
        "kind": "operation",
        "matrix": {
            "kind": "grid",
            "concurrency": 2,
            "params": {"x": {"kind": "choice", "value": [1, 2, 3, 4, 5, 6]}},
        },
        "component": {
            "name": "sweep",
            "inputs": [{"name": "x", "type": "int"}],
            "run": {
                "kind": "job",
                "container": {"command": [sys.executable, "-c", code, str(journal), "{{ x }}"]},
            },
        },
    }
    path = tmp_path / "sweep.yaml"
    path.write_text(json.dumps(spec))
    sweep_uuid = submit(own_stack, path)

    def trials_running() -> bool:
        page = get(http, RUNS, pipeline=sweep_uuid)
        return bool(page) and sum(t["status"] == "running" for t in page["runs"]) == 2

    wait_for_sync(trials_running, timeout=30, interval=0.05, message="two trials running")
    kill_service(own_stack, "scheduler")

    sweep = wait_for_sync(
        lambda: run_in(http, sweep_uuid, DONE), timeout=60, interval=0.2, message="sweep done"
    )
    assert sweep["status"] == "succeeded", sweep
    assert sorted(journal.read_text().split()) == ["1", "2", "3", "4", "5", "6"]
    trials = get(http, RUNS, pipeline=sweep_uuid)["runs"]
    assert len(trials) == 6
    assert all(t["status"] == "succeeded" and t["attempt"] == 1 for t in trials), trials


@pytest.mark.parametrize("catchup", ["skip", "all"])
def test_a_slot_missed_while_the_scheduler_restarts_follows_the_catch_up_policy(
    own_stack: RunningStack, http: httpx.Client, tmp_path: Path, catchup: str
):
    command = [sys.executable, "-c", "print('tick')"]
    spec = {
        "version": 1.1,
        "kind": "operation",
        "name": f"every-4s-{catchup}",
        "schedule": {"kind": "interval", "frequency": 4, "maxRuns": 3, "catchup": catchup},
        "component": {"run": {"kind": "job", "container": {"command": command}}},
    }
    path = tmp_path / "schedule.yaml"
    path.write_text(json.dumps(spec))
    schedule_uuid = submit(own_stack, path)

    def next_slot() -> datetime | None:
        listed = get(http, "/api/v1/default/default/schedules")
        item = next((i for i in listed["schedules"] if i["run_uuid"] == schedule_uuid), None)
        fired = item is not None and item["fired"] == 1
        return datetime.fromisoformat(item["next_fire_at"]) if fired else None

    slot = wait_for_sync(next_slot, timeout=30, interval=0.05, message="the first slot fired")
    time.sleep(max(0.0, (slot - datetime.now(UTC)).total_seconds() - 0.3))
    kill_service(own_stack, "scheduler")  # down across the second slot

    run = wait_for_sync(
        lambda: run_in(http, schedule_uuid, DONE), timeout=60, interval=0.2, message="done"
    )
    assert (run["status"], run["reason"]) == ("succeeded", "ScheduleFinished"), run
    kids = get(http, RUNS, pipeline=schedule_uuid)["runs"]
    stamps = sorted(datetime.strptime(k["name"][-15:], "%Y%m%d-%H%M%S") for k in kids)
    offsets = [int((t - stamps[0]).total_seconds()) for t in stamps]
    assert len(offsets) == 3, offsets
    assert all(o % 4 == 0 for o in offsets), offsets  # one run a slot
    if catchup == "all":
        assert offsets == [0, 4, 8], offsets  # the missed slots fired once the clock was back
    else:
        assert 4 not in offsets, offsets  # missed (as any other the restart spanned): skipped
