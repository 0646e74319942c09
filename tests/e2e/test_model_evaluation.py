"""Evaluating a model version end to end on the embedded stack: an evaluation job scores a
registered version on a dataset version with ``tracking.log_model_scores``, and the
``production`` alias, gated on ``auc >= 0.9``, takes the version only once its latest
evaluation meets the gate."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import pytest

from axonal_testing.stack import RunningStack

pytestmark = pytest.mark.slow  # real processes on the embedded stack

TRAIN_SCRIPT = """
from pathlib import Path
from axonal import tracking

Path("model.pkl").write_bytes(b"churn weights to evaluate")
tracking.log_model("model.pkl", "model", register_as="churn")
"""

EVALUATE_SCRIPT = """
import sys
from pathlib import Path
from axonal import tracking

model, version, auc = sys.argv[1], sys.argv[2], float(sys.argv[3])
Path("holdout.csv").write_text("x,y\\n3,1\\n4,0\\n")
tracking.log_metrics(auc=auc)
done = tracking.log_model_scores(
    model, version, {"auc": auc}, dataset=tracking.Dataset("holdout.csv")
)
print("scored", done["version"], flush=True)
"""


def job(name: str, script: str, inputs: str = "", args: str = "") -> str:
    return f"""
version: 1.1
kind: component
name: {name}
{inputs}
run:
  kind: job
  init:
    - file:
        filename: main.py
        content: {json.dumps(script)}
  container:
    image: python
    workingDir: "{{{{ globals.artifacts_path }}}}"
    command: [{json.dumps(sys.executable)}, main.py]
    args: [{args}]
"""


EVALUATE = job(
    "evaluate-churn",
    EVALUATE_SCRIPT,
    inputs="inputs:\n- {name: model, type: str}\n- {name: version, type: str}\n"
    "- {name: auc, type: float}",
    args='"{{ model }}", "{{ version }}", "{{ auc }}"',
)


def test_a_gated_alias_takes_a_version_once_its_evaluation_meets_the_gate(
    stack: RunningStack, tmp_path: Path
) -> None:
    project = f"e2e/evals-{uuid.uuid4().hex[:8]}"
    on = ("-p", project)
    train, evaluate = tmp_path / "train.yaml", tmp_path / "evaluate.yaml"
    train.write_text(job("train-churn", TRAIN_SCRIPT))
    evaluate.write_text(EVALUATE)
    trained = stack.cli("run", "-f", str(train), *on, "--watch", timeout=180)
    assert trained.returncode == 0, trained.stdout + trained.stderr

    gates = stack.cli_json(
        "registry", "models", "gate", "churn", "production", "-r", "auc>=0.9", *on
    )
    assert gates["gates"] == {"production": [{"metric": "auc", "op": ">=", "threshold": 0.9}]}
    promote = ("registry", "models", "promote", "churn", "1", "-a", "production", *on)
    unscored = stack.cli(*promote)
    assert unscored.returncode != 0
    assert "version 1 has no 'auc' score" in " ".join((unscored.stdout + unscored.stderr).split())

    for auc in ("0.85", "0.93"):
        params = ("-P", "model=churn", "-P", "version=1", "-P", f"auc={auc}")
        done = stack.cli("run", "-f", str(evaluate), *params, *on, "--watch", timeout=180)
        assert done.returncode == 0, done.stdout + done.stderr
        if auc == "0.85":
            refused = stack.cli(*promote)
            assert refused.returncode != 0
            said = " ".join((refused.stdout + refused.stderr).split())
            assert "requires auc >= 0.9: version 1 scored 0.85" in said, said

    promoted = stack.cli_json(*promote)
    assert (promoted["status"], promoted["version"]["aliases"]) == ("moved", ["production"])
    scores = stack.cli_json("registry", "models", "scores", "churn", "production", *on)
    assert [s["value"] for s in scores["scores"]] == [0.93, 0.85]
    assert all(s["dataset"].startswith("holdout.csv@") for s in scores["scores"])
    runs = {r["uuid"] for r in stack.cli_json("ops", "ls", *on)["runs"]}
    assert {s["run_uuid"] for s in scores["scores"]} <= runs
