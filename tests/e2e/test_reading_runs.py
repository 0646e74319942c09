"""Ops that read other runs, on the embedded stack: an ``events`` trigger starts an op while
its upstream still runs; a join binds the outputs of the project's earlier runs; a ``ref:
runs.<uuid>`` param reads a run that ended before."""

from __future__ import annotations

import json
import sys

import pytest

from .lifecycle_support import User, at

pytestmark = pytest.mark.slow  # real processes on the embedded stack


def operation(name: str, body: dict[str, object]) -> str:
    return json.dumps({"version": 1.1, "kind": "operation", "name": name, **body})


def job(command: list[str], **component: object) -> dict[str, object]:
    return {"run": {"kind": "job", "container": {"command": command}}, **component}


def output(value: float) -> list[str]:
    code = f"from axonal.tracking import log_outputs; log_outputs(loss={value})"
    return [sys.executable, "-c", code]


LOSS = {"outputs": [{"name": "loss", "type": "float"}]}


def test_events_joins_and_run_refs(user: User) -> None:
    earlier = {}
    for name, loss in (("first", 0.5), ("second", 0.2), ("third", 0.1)):
        uuid = user.run(
            operation(name, {"tags": ["sweep"], "component": job(output(loss), **LOSS)})
        )
        earlier[name] = uuid
        assert user.wait_done(uuid)["status"] == "succeeded"

    sleep = [sys.executable, "-c", "import time; time.sleep(6)"]
    first = {"ref": f"runs.{earlier['first']}", "value": "outputs.loss"}
    watch = {
        "run": {
            "kind": "dag",
            "operations": [
                {"name": "train", "component": job(sleep)},
                {
                    "name": "board",
                    "events": [{"kinds": ["run_status_running"], "ref": "ops.train"}],
                    "component": job(["/bin/sh", "-c", "echo watching"]),
                },
                {
                    "name": "summary",
                    "joins": [{
                        "query": "kind:job, status:succeeded, tags:sweep",
                        "sort": "outputs.loss",
                        "limit": 2,
                        "params": {"losses": {"value": "outputs.loss"}},
                    }],
                    "params": {"first": first},
                    "component": job(
                        ["/bin/sh", "-c", "echo best={{ losses }} first={{ first }}"],
                        inputs=[{"name": "losses", "type": "List[float]"},
                                {"name": "first", "type": "float"}],
                    ),
                },
            ],
        }
    }  # fmt: skip
    pipe = user.run(operation("reader", {"component": watch}))
    run = user.wait_done(pipe, timeout=60)
    kids = user.children(pipe)
    assert run["status"] == "succeeded", (run, kids)
    board, train = kids["board"], kids["train"]
    assert at(board["finished_at"]) < at(train["finished_at"])  # it ran beside its upstream
    assert "watching" in user.log_lines(board["uuid"])
    summary = kids["summary"]
    assert summary["inputs"]["losses"] == [0.1, 0.2]
    assert summary["inputs"]["first"] == 0.5
    assert "best=[0.1, 0.2] first=0.5" in user.log_lines(summary["uuid"])
