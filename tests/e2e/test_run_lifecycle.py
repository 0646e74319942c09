"""The run lifecycle on the embedded stack, driven like a user: ``axonal run``/``axonal ops``
with ``--json``, and the HTTP api where it is simpler.

Jobs (success, exit code, live logs), DAGs (refs, trigger policies, conditions), termination
(retries, timeout), stop, a queue of concurrency 1 and matrices (grid, metric early stopping).
The local executor runs each job's command on this machine.
"""

from __future__ import annotations

import json
import shlex
import sys
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx
import psutil
import pytest

from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

pytestmark = pytest.mark.slow  # real processes on the embedded stack

DONE = {"succeeded", "failed", "stopped", "skipped", "upstream_failed"}


class User:
    """One project's view of the stack: the CLI for actions, HTTP for polling."""

    def __init__(self, stack: RunningStack, project: str, folder: Path) -> None:
        self.stack = stack
        self.project = project
        self.folder = folder
        self.http = httpx.Client(base_url=stack.status["api_url"], timeout=10)
        self.base = f"/api/v1/{project}/runs"

    def cli_json(self, *args: str) -> Any:
        result = self.stack.cli(*args, "-p", self.project, "--json", timeout=60)
        assert result.returncode == 0, f"axonal {args}: {result.stdout}\n{result.stderr}"
        return json.loads(result.stdout)

    def run(self, polyaxonfile: str, *extra: str) -> str:
        """``axonal run -f FILE --json``; the new run's uuid."""
        path = self.folder / f"run-{len(list(self.folder.glob('run-*')))}.yaml"
        path.write_text(polyaxonfile)
        created = self.cli_json("run", "-f", str(path), *extra)
        return str(created["uuid"])

    def get(self, uuid: str) -> dict[str, Any] | None:
        response = self.http.get(f"{self.base}/{uuid}")
        if response.status_code == 404:  # submitted, not recorded yet
            return None
        response.raise_for_status()
        found: dict[str, Any] = response.json()
        return found

    def wait_status(self, uuid: str, *wanted: str, timeout: float = 30) -> dict[str, Any]:
        def reached() -> dict[str, Any] | None:
            run = self.get(uuid)
            return run if run is not None and run["status"] in wanted else None

        return wait_for_sync(reached, timeout=timeout, message=f"run {uuid} {wanted}")

    def wait_done(self, uuid: str, timeout: float = 30) -> dict[str, Any]:
        return self.wait_status(uuid, *DONE, timeout=timeout)

    def log_lines(self, uuid: str, *, so_far: bool = False) -> list[str]:
        """The run's lines once the api says they are all stored (``done``), or ``so_far``."""

        def page() -> dict[str, Any] | None:
            found = self.http.get(f"{self.base}/{uuid}/logs", params={"limit": 1000}).json()
            return dict(found) if so_far or found["done"] else None

        lines = wait_for_sync(page, timeout=60, message=f"every log line of {uuid}")["lines"]
        return [line["line"] for line in lines]

    def statuses(self, uuid: str) -> list[str]:
        """``axonal ops statuses UUID --json``: the status names in order."""
        history = self.cli_json("ops", "statuses", uuid)
        return [change["status"] for change in history["changes"]]

    def children(self, pipeline: str) -> dict[str, dict[str, Any]]:
        page = self.http.get(self.base, params={"pipeline": pipeline, "limit": 100}).json()
        return {run["name"] or run["uuid"]: run for run in page["runs"]}


@pytest.fixture
def user(stack: RunningStack, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[User]:
    name = request.node.name.removeprefix("test_").replace("_", "-")[:40]
    client = User(stack, f"e2e/{name}", tmp_path)
    try:
        yield client
    finally:
        client.http.close()


def job(command: list[str], *, top: str = "") -> str:
    """A component running ``command`` (a flow-style YAML list) with extra top-level YAML."""
    return f"""
version: 1.1
kind: component
{top}
run:
  kind: job
  container:
    image: python
    command: {json.dumps(command)}
"""


def shell(script: str, *, top: str = "") -> str:
    return job(["/bin/sh", "-c", script], top=top)


def parse_json_stream(text: str) -> list[dict[str, Any]]:
    """Several (pretty-printed) JSON documents one after the other."""
    decoder, found, pos = json.JSONDecoder(), [], 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        doc, pos = decoder.raw_decode(text, pos)
        found.append(doc)
    return found


def at(value: str) -> datetime:
    return datetime.fromisoformat(value)


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


def dag_op(name: str, run: str, *lines: str, inputs: str = "", outputs: str = "") -> str:
    extra = "".join(f"\n    {line}" for line in lines)
    io = "".join(f"\n      {part}" for part in (inputs, outputs) if part)
    return f"""
  - name: {name}{extra}
    component:{io}
      run: {run}"""


def dag(*ops: str) -> str:
    return """
version: 1.1
kind: component
run:
  kind: dag
  operations:""" + "".join(op.replace("\n", "\n  ") for op in ops)


def job_run(command: list[str]) -> str:
    """A job ``run`` section on one line (JSON is YAML)."""
    return json.dumps({"kind": "job", "container": {"image": "python", "command": command}})


def sh_run(script: str) -> str:
    return job_run(["/bin/sh", "-c", script])


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


def _processes_of(uuid: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter(["cmdline", "status"]):
        if proc.info["cmdline"] != ["sleep", "60"] or proc.info["status"] == "zombie":
            continue
        try:
            if proc.environ().get("AXONAL_RUN_UUID", "").replace("-", "") == uuid.replace("-", ""):
                found.append(proc)
        except (psutil.AccessDenied, psutil.NoSuchProcess):
            continue
    return found


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
