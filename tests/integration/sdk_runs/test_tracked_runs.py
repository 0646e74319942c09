"""``tracking.init()`` from a laptop: a non-managed run created, fed and ended over HTTP."""

from __future__ import annotations

import subprocess
import sys

import pytest

from axonal_testing.waiting import wait_for_sync

from .conftest import PROJECT, Laptop

pytestmark = pytest.mark.slow  # the embedded stack

TRAIN = f"""
from axonal import tracking
run = tracking.init("{PROJECT}", "laptop", tags=["cpu"], inputs={{"lr": 0.1}},
                    description="from a notebook")
print(run.uuid, flush=True)
for step in range(20):
    tracking.log_metrics(step=step, loss=1 / (step + 1))
tracking.log_inputs(batch=32)
tracking.log_outputs(acc=0.9)
tracking.log_tags("baseline", "cpu")
tracking.log_progress(0.7)
tracking.end()
tracking.end()  # a second end changes nothing
"""

EXIT = f"""
import sys
from axonal import tracking
print(tracking.init("{PROJECT}").uuid, flush=True)
tracking.log_metric("loss", 0.5)
if sys.argv[1] == "raise":
    raise RuntimeError("diverged")
if sys.argv[1] == "sys.exit":
    sys.exit(3)
"""


def test_a_laptop_run_is_created_fed_and_ended_through_the_api(laptop: Laptop) -> None:
    done = laptop.script(TRAIN)
    assert done.returncode == 0, done.stderr
    run_uuid = done.stdout.strip()
    run = laptop.get(run_uuid)
    assert (run["managed"], run["status"], run["name"]) == (False, "succeeded", "laptop")
    assert run["inputs"] == {"lr": 0.1, "batch": 32}
    assert run["outputs"] == {"acc": 0.9}
    assert run["tags"] == ["cpu", "baseline"]
    assert run["progress"] == pytest.approx(0.7)
    assert run["description"] == "from a notebook"
    history = [c["status"] for c in laptop.get(run_uuid, "/statuses")["changes"]]
    assert history == ["created", "running", "succeeded"]
    series = laptop.points(run_uuid, "loss", 20)
    assert series["total"] == 20
    shown = laptop.stack.cli("ops", "get", run_uuid, "-p", PROJECT)
    for shown_value in ("baseline", "70%", "from the SDK"):
        assert shown_value in shown.stdout


@pytest.mark.parametrize(
    ("how", "status", "code"),
    [("exit", "succeeded", 0), ("raise", "failed", 1), ("sys.exit", "failed", 3)],
)
def test_a_run_init_created_is_ended_when_the_interpreter_exits(
    laptop: Laptop, how: str, status: str, code: int
) -> None:
    done = laptop.script(EXIT, how)
    assert done.returncode == code, done.stderr
    run = laptop.get(done.stdout.strip())
    assert run["status"] == status
    if how == "raise":
        assert "RuntimeError: diverged" in done.stderr  # the traceback is still printed
        assert run["message"] == "RuntimeError: diverged"
    if how == "sys.exit":
        assert run["message"] == "exit code 3"
    assert laptop.points(run["uuid"], "loss", 1)["total"] == 1


def test_init_without_an_api_says_what_is_wrong(laptop: Laptop) -> None:
    code = "from axonal import tracking\ntracking.init('acme/sdk')"
    done = laptop.script(code, AXONAL_API_URL="http://127.0.0.1:9")
    assert done.returncode == 1
    assert "TrackingError: cannot reach the api at http://127.0.0.1:9" in done.stderr


def test_stopping_a_tracked_run_stops_it_at_once(laptop: Laptop) -> None:
    run = laptop.http.post(f"{laptop.runs}/tracked", json={"name": "to stop"}).json()
    stopped = laptop.stack.cli("ops", "stop", run["uuid"], "-p", PROJECT)
    assert stopped.returncode == 0, stopped.stderr
    wait_for_sync(
        lambda: laptop.get(run["uuid"])["status"] == "stopped",
        timeout=15,
        message="the tracked run is stopped",
    )


ARTIFACTS = f"""
from pathlib import Path
from axonal import tracking
Path("model.bin").write_bytes(b"weights" * 100)
with tracking.init("{PROJECT}", "with artifacts") as run:
    print(run.uuid, flush=True)
    tracking.log_model("model.bin", framework="numpy")
    tracking.log_text("notes", "converged after 3 epochs", step=3)
    tracking.log_histogram("weights", [0.1, 0.2, 0.2, 0.9], bins=3)
"""


def test_a_laptop_run_uploads_artifacts_that_the_cli_lists_and_downloads(
    laptop: Laptop, tmp_path
) -> None:
    done = subprocess.run(
        [sys.executable, "-c", ARTIFACTS],
        env=laptop.env(),
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    run_uuid = done.stdout.strip()
    assert laptop.get(run_uuid)["status"] == "succeeded"

    def listed():
        found = laptop.get(run_uuid, "/artifacts")["artifacts"]
        return found if len(found) == 3 else None

    by_name = {a["name"]: a for a in wait_for_sync(listed, timeout=30, message="3 artifacts")}
    assert (by_name["model.bin"]["kind"], by_name["model.bin"]["size"]) == ("model", 700)
    assert by_name["notes"]["step"] == 3
    assert by_name["weights"]["summary"]["counts"] == [3, 0, 1]
    to = tmp_path / "downloaded"
    got = laptop.stack.cli(
        "ops", "artifacts", run_uuid, "-p", PROJECT, "--download", "model.bin", "--to", str(to)
    )
    assert got.returncode == 0, got.stderr
    assert (to / "model.bin").read_bytes() == b"weights" * 100
