"""The component hub on the embedded stack, through the CLI: a pushed component is listed,
pulled, seen by ``axonal check``, and a DAG op naming it with hubRef runs it."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path

import pytest

from axonal_testing.stack import RunningStack

from .lifecycle_support import User

pytestmark = pytest.mark.slow  # real processes on the embedded stack

TRAINER = f"""\
version: 1.1
kind: component
name: trainer
description: Prints what it trains with.
inputs:
- {{name: lr, type: float, value: 0.1, isOptional: true}}
outputs:
- {{name: loss, type: float, isOptional: true}}
run:
  kind: job
  container:
    image: python
    command: [{json.dumps(sys.executable)}, -c, "print('trainer v2 lr={{{{ lr }}}}')"]
"""

PIPELINE = """\
version: 1.1
kind: operation
name: train-pipeline
component:
  run:
    kind: dag
    operations:
    - name: train
      hubRef: {ref}
      params: {{lr: {{value: 0.5}}}}
"""


def cli(stack: RunningStack, *args: str) -> str:
    result = stack.cli(*args, timeout=60)
    assert result.returncode == 0, f"axonal {args}: {result.stdout}\n{result.stderr}"
    return result.stdout


def test_a_dag_runs_the_component_pushed_to_the_hub(
    stack: RunningStack, tmp_path: Path, user: User
) -> None:
    owner = f"acme{uuid.uuid4().hex[:6]}"
    ref = f"{owner}/trainer:v2"
    component = tmp_path / "trainer.yaml"
    component.write_text(TRAINER)
    pushed = json.loads(cli(stack, "hub", "push", "-f", str(component), "--name", ref, "--json"))
    assert (pushed["created"], pushed["inputs"], pushed["outputs"]) == (True, ["lr"], ["loss"])
    assert "unchanged" in cli(stack, "hub", "push", "-f", str(component), "--name", ref)

    changed = tmp_path / "changed.yaml"
    changed.write_text(TRAINER.replace("Prints", "Shows"))
    refused = stack.cli("hub", "push", "-f", str(changed), "--name", ref, timeout=60)
    assert refused.returncode != 0
    assert "immutable" in refused.stderr

    listed = json.loads(cli(stack, "hub", "ls", "--owner", owner, "--json"))
    assert [(c["name"], c["tag"], c["latest"]) for c in listed["components"]] == [
        ("trainer", "v2", True)
    ]
    assert "tensorboard" in cli(stack, "hub", "ls", "--owner", "axonal")
    assert cli(stack, "hub", "pull", f"{owner}/trainer") == TRAINER

    pipeline = tmp_path / "pipeline.yaml"
    pipeline.write_text(PIPELINE.format(ref=ref))
    assert "train-pipeline" in cli(stack, "check", "-f", str(pipeline))
    unknown = tmp_path / "unknown.yaml"
    unknown.write_text(PIPELINE.format(ref=f"{owner}/trainer:v3"))
    checked = stack.cli("check", "-f", str(unknown), timeout=60)
    assert checked.returncode == 1
    assert "hubRef" in checked.stderr
    assert "no tag `v3`" in checked.stderr

    run_uuid = user.run(PIPELINE.format(ref=ref))
    run = user.wait_done(run_uuid, timeout=120)
    assert run["status"] == "succeeded", run
    [child] = user.children(run_uuid).values()
    assert child["status"] == "succeeded"
    assert "trainer v2 lr=0.5" in user.log_lines(child["uuid"])
