"""The run lifecycle on the embedded stack, driven like a user: termination (retries,
timeout), stop, a queue of concurrency 1 and matrices (grid, metric early stopping).
"""

from __future__ import annotations

import sys

import psutil
import pytest

from axonal_testing.waiting import wait_for_sync

from .lifecycle_support import User, _processes_of, at, job, job_run, shell

pytestmark = pytest.mark.slow  # real processes on the embedded stack


# -- termination, stop, queues ---------------------------------------------------------------


def test_max_retries_succeeds_after_two_retrying(user: User) -> None:
    counter = user.folder / "attempts"
    code = (
        "import pathlib, sys\n"
        f"p = pathlib.Path({str(counter)!r})\n"
        "n = int(p.read_text()) if p.exists() else 0\n"
        "p.write_text(str(n + 1))\n"
        "print('attempt', n + 1)\n"
        "sys.exit(0 if n >= 2 else 1)\n"
    )
    uuid = user.run(job([sys.executable, "-c", code], top="termination: {maxRetries: 2}"))
    run = user.wait_done(uuid)
    assert run["status"] == "succeeded", run
    assert counter.read_text() == "3"
    assert run["attempt"] == 3
    history = user.statuses(uuid)
    assert history.count("retrying") == 2, history
    assert history.count("failed") == 0, history
    assert history[-1] == "succeeded"


def test_timeout_stops_a_sleeping_job(user: User) -> None:
    uuid = user.run(job(["sleep", "30"], top="termination: {timeout: 1}"))
    run = user.wait_done(uuid, timeout=20)
    assert run["status"] == "failed", run
    assert run["reason"] == "Timeout", run
    took = at(run["finished_at"]) - at(run["started_at"])
    assert took.total_seconds() < 15


def test_stop_a_running_job_leaves_no_process(user: User) -> None:
    uuid = user.run(job(["sleep", "60"]))
    user.wait_status(uuid, "running")
    procs = wait_for_sync(lambda: _processes_of(uuid), timeout=10, message="sleep 60 process")
    reply = user.cli_json("ops", "stop", uuid)
    assert reply["action"] == "stop"
    run = user.wait_done(uuid, timeout=30)
    assert run["status"] == "stopped", run
    assert "stopping" in user.statuses(uuid)
    _, alive = psutil.wait_procs(procs, timeout=5)
    assert not [p for p in alive if p.status() != psutil.STATUS_ZOMBIE]
    assert _processes_of(uuid) == []


def test_queue_with_concurrency_one_runs_jobs_one_after_the_other(user: User) -> None:
    text = shell("echo start; sleep 1; echo end")
    first = user.run(text, "-q", "serial")
    second = user.run(text, "-q", "serial")
    runs = [user.wait_done(uuid) for uuid in (first, second)]
    assert [run["status"] for run in runs] == ["succeeded", "succeeded"], runs
    assert {run["queue"] for run in runs} == {"serial"}
    one, two = sorted(runs, key=lambda run: at(run["started_at"]))
    assert at(two["started_at"]) >= at(one["finished_at"]), (one, two)
    # the second waited in `queued` and was scheduled once the first was done
    history = user.http.get(f"{user.base}/{two['uuid']}/statuses").json()["changes"]
    scheduled = next(at(c["at"]) for c in history if c["status"] == "scheduled")
    assert "queued" in [c["status"] for c in history], history
    assert scheduled >= at(one["finished_at"]), history


# -- matrices --------------------------------------------------------------------------------


def matrix(params: str, command: list[str], *, concurrency: int, early: str = "") -> str:
    return f"""
version: 1.1
kind: operation
matrix:
  kind: grid
  concurrency: {concurrency}
  params:{params}{early}
component:
  inputs: [{{name: a, type: int}}, {{name: b, type: int}}]
  outputs: [{{name: score, type: int, isOptional: true}}]
  run: {job_run(command)}
"""


GRID = """
    a: {kind: choice, value: [1, 2, 3]}
    b: {kind: choice, value: [1, 2, 3]}"""


def test_grid_matrix_runs_nine_trials(user: User) -> None:
    sweep = user.run(matrix(GRID, ["/bin/sh", "-c", "echo a={{ a }} b={{ b }}"], concurrency=3))
    run = user.wait_done(sweep, timeout=45)
    kids = user.children(sweep)
    assert run["status"] == "succeeded", (run, kids)
    assert (run["kind"], run["children"]) == ("matrix", 9)
    assert len(kids) == 9
    assert {kid["status"] for kid in kids.values()} == {"succeeded"}
    points = {(kid["inputs"]["a"], kid["inputs"]["b"]) for kid in kids.values()}
    assert points == {(a, b) for a in (1, 2, 3) for b in (1, 2, 3)}
    # concurrency 3: never more than three trials running at once
    intervals = [(at(k["started_at"]), at(k["finished_at"])) for k in kids.values()]
    for start, _ in intervals:
        assert sum(s <= start < f for s, f in intervals) <= 3


def test_metric_early_stopping_stops_the_rest(user: User) -> None:
    code = "from axonal.tracking import log_outputs; log_outputs(score={{ a }} * {{ b }})"
    early = (
        "\n  earlyStopping:"
        "\n  - {kind: metric_early_stopping, metric: score, value: 2, optimization: maximize}"
    )
    sweep = user.run(matrix(GRID, [sys.executable, "-c", code], concurrency=1, early=early))
    run = user.wait_done(sweep, timeout=45)
    kids = user.children(sweep)
    # spec §5: metric_early_stopping stops the pipeline as succeeded
    assert run["status"] == "succeeded", (run, kids)
    assert run["reason"] == "MetricEarlyStopping", run
    succeeded = [kid for kid in kids.values() if kid["status"] == "succeeded"]
    assert 0 < len(succeeded) < 9, kids
    # one trial at a time: the last one to finish crossed the target, none before it did
    succeeded.sort(key=lambda kid: at(kid["finished_at"]))
    scores = [kid["outputs"]["score"] for kid in succeeded]
    assert scores[-1] >= 2, scores
    assert all(score < 2 for score in scores[:-1]), scores
    assert {kid["status"] for kid in kids.values()} <= {"succeeded", "stopped"}
    never_ran = [kid for kid in kids.values() if kid["status"] == "stopped"]
    assert never_ran, kids
    assert all(kid["started_at"] is None for kid in never_ran), never_ran
