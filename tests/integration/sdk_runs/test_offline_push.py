"""Offline runs pushed with ``axonal ops push``: the same run, once, however often pushed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from .conftest import PROJECT, Laptop

pytestmark = pytest.mark.slow  # the embedded stack

OFFLINE = """
import sys
from axonal import tracking
run = tracking.init(name="on a plane", tags=["offline"], inputs={"lr": 0.01},
                    offline_dir=sys.argv[1])
print(run.uuid, flush=True)
for step in range(300):
    tracking.log_metrics(step=step, loss=1 / (step + 1), acc=step / 300)
tracking.log_metrics(step=300, loss=float("nan"), acc=float("-inf"))
tracking.log_outputs(acc=0.99)
tracking.log_progress(1.0)
tracking.end("stopped", "landed")
"""


def test_an_offline_run_pushed_twice_is_stored_once(laptop: Laptop, tmp_path: Path) -> None:
    folder = tmp_path / "run"
    done = laptop.script(
        OFFLINE, str(folder), AXONAL_OFFLINE="1", AXONAL_API_URL="http://127.0.0.1:9"
    )
    assert done.returncode == 0, done.stderr
    run_uuid = done.stdout.strip()

    pushed = laptop.stack.cli("ops", "push", str(folder), "-p", PROJECT, "--json")
    assert pushed.returncode == 0, pushed.stderr
    summary = json.loads(pushed.stdout)
    assert (summary["run"]["uuid"], summary["points"]) == (run_uuid, 602)
    run = laptop.get(run_uuid)
    assert (run["managed"], run["status"], run["message"]) == (False, "stopped", "landed")
    assert (run["name"], run["tags"], run["progress"]) == ("on a plane", ["offline"], 1.0)
    assert (run["inputs"], run["outputs"]) == ({"lr": 0.01}, {"acc": 0.99})
    loss = laptop.points(run_uuid, "loss", 301)
    assert (loss["total"], loss["points"][-1]["value"]) == (301, "NaN")
    acc = laptop.points(run_uuid, "acc", 301)
    assert (acc["total"], acc["points"][-1]["value"]) == (301, "-Infinity")

    again = laptop.stack.cli("ops", "push", str(folder), "-p", PROJECT)
    assert again.returncode == 0, again.stderr
    assert f"pushed run {run_uuid}" in again.stdout
    assert "602 points" in again.stdout
    laptop.metrics_settled()  # the re-sent batches are handled: a duplicate would show now
    series = {s["name"]: s["total"] for s in laptop.get(run_uuid, "/metrics")["series"]}
    assert series == {"loss": 301, "acc": 301}
    history = [c["status"] for c in laptop.get(run_uuid, "/statuses")["changes"]]
    assert history == ["created", "running", "stopped"]


def test_pushing_a_folder_without_a_run_fails_with_a_hint(laptop: Laptop, tmp_path: Path) -> None:
    pushed = laptop.stack.cli("ops", "push", str(tmp_path))
    assert pushed.returncode == 1
    assert "not an offline run folder" in pushed.stderr
    assert "Hint:" in pushed.stderr
