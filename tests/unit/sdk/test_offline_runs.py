"""Offline runs: what ``init(offline=True)`` records, how a folder is read back for a push,
and the errors of tracking used outside any run."""

import json
import os
import subprocess
import sys

import pytest

from axonal import tracking
from axonal._offline import read_folder, replay
from axonal_events.metrics import MetricBatch

TRAIN = """
import sys
from axonal import tracking
run = tracking.init("acme/demo", "laptop", tags=["a"], inputs={"lr": 0.1}, description="d",
                    offline=True, offline_dir=sys.argv[1])
print(run.uuid)
for step in range(5):
    tracking.log_metrics(step=step, loss=1 / (step + 1))
tracking.log_inputs(batch=32)
tracking.log_tags("b", "a")
tracking.log_progress(0.5)
tracking.log_outputs(acc=0.9)
if sys.argv[2] == "raise":
    raise ValueError("boom")
if sys.argv[2] == "end":
    tracking.end("stopped", "enough")
"""


def run_child(folder, how="exit", code=TRAIN):
    env = {k: v for k, v in os.environ.items() if not k.startswith("AXONAL_")}
    return subprocess.run(
        [sys.executable, "-c", code, str(folder), how],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def test_an_offline_run_records_everything_and_ends_succeeded_at_exit(tmp_path):
    done = run_child(tmp_path / "run")
    assert done.returncode == 0, done.stderr
    assert "axonal ops push" in done.stderr
    run = read_folder(tmp_path / "run")
    assert run.uuid == done.stdout.strip()
    assert (run.project, run.name, run.description) == ("acme/demo", "laptop", "d")
    assert run.inputs == {"lr": 0.1, "batch": 32}
    assert run.outputs == {"acc": 0.9}
    assert run.tags == ["a", "b"]
    assert run.progress == 0.5
    assert (run.status, run.message) == ("succeeded", None)
    assert run.points == 5
    for msg_id, body, _ in run.batches:
        assert msg_id.startswith(f"{run.uuid}:")
        assert MetricBatch.model_validate_json(body).run_uuid == run.uuid


def test_an_uncaught_exception_ends_it_failed_and_an_explicit_end_wins(tmp_path):
    failed = run_child(tmp_path / "failed", "raise")
    assert failed.returncode == 1
    assert "ValueError: boom" in failed.stderr  # the user's traceback is still printed
    assert read_folder(tmp_path / "failed").status == "failed"
    assert read_folder(tmp_path / "failed").message == "ValueError: boom"
    ended = run_child(tmp_path / "ended", "end")
    assert ended.returncode == 0, ended.stderr
    assert (read_folder(tmp_path / "ended").status, read_folder(tmp_path / "ended").message) == (
        "stopped",
        "enough",
    )


def test_init_on_a_recorded_folder_resumes_its_run(tmp_path):
    first = run_child(tmp_path / "run")
    again = run_child(tmp_path / "run")
    assert first.stdout == again.stdout
    assert read_folder(tmp_path / "run").points == 10  # same steps: stored once when pushed


def test_replay_merges_in_order_and_skips_a_line_cut_short():
    lines = [
        json.dumps({"kind": "create", "uuid": "u" * 32, "project": None, "tags": ["x"]}),
        json.dumps({"kind": "update", "inputs": {"a": 1}, "tags": ["y", "x"], "progress": 0.2}),
        json.dumps({"kind": "update", "inputs": {"a": 2}, "outputs": {"o": 1}}),
        json.dumps({"kind": "end", "status": "failed", "message": "m"}),
        json.dumps({"kind": "end", "status": "succeeded"}),
        '{"kind": "update", "tags": ["z"',
    ]
    run = replay([line.encode() for line in lines])
    assert (run.uuid, run.project) == ("u" * 32, None)
    assert run.inputs == {"a": 2}
    assert run.outputs == {"o": 1}
    assert run.tags == ["x", "y"]
    assert run.progress == 0.2
    assert (run.status, run.message) == ("failed", "m")


def test_a_folder_without_a_run_is_refused_with_a_reason(tmp_path):
    with pytest.raises(ValueError, match="not an offline run folder"):
        read_folder(tmp_path / "missing")
    (tmp_path / "run.jsonl").write_text('{"kind": "update"}\n')
    with pytest.raises(ValueError, match="does not record the run's creation"):
        read_folder(tmp_path)


@pytest.mark.parametrize(
    "call",
    [
        lambda: tracking.log_inputs(a=1),
        lambda: tracking.log_tags("a"),
        lambda: tracking.log_progress(0.5),
        lambda: tracking.log_outputs(a=1),
        tracking.end,
    ],
)
def test_outside_any_run_tracking_says_how_to_start_one(monkeypatch, call):
    for name in ("AXONAL_RUN_UUID", "AXONAL_RUN_OUTPUTS_FILE"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(tracking.NotInRunError, match=r"init\(project="):
        call()


@pytest.mark.parametrize("value", [-0.1, 1.5, "half", True, float("nan")])
def test_progress_must_be_a_number_from_0_to_1(value):
    with pytest.raises(ValueError, match="progress"):
        tracking.log_progress(value)


def test_bad_arguments_of_init_and_end_are_refused_before_any_io(monkeypatch):
    monkeypatch.delenv("AXONAL_RUN_UUID", raising=False)
    with pytest.raises(ValueError, match="owner/name"):
        tracking.init("no-slash")
    with pytest.raises(ValueError, match="tags must be a list"):
        tracking.init("acme/demo", tags="oops")
    with pytest.raises(ValueError, match="status must be"):
        tracking.end("done")


def test_a_with_block_ends_the_run_with_the_block(tmp_path):
    code = """
import sys
from axonal import tracking
try:
    with tracking.init("acme/demo", offline=True, offline_dir=sys.argv[1]) as run:
        raise KeyError("k")
except KeyError:
    print(run.status)
"""
    done = run_child(tmp_path / "run", code=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "failed"
    assert read_folder(tmp_path / "run").message == "KeyError: 'k'"
