"""Adaptive searches on the embedded stack: a polyaxonfile's sweep runs exactly its budget of
trials suggested by the optimization service, each a job that computes the Branin function
from its params and logs the objective with the SDK; the sweep's outputs hold the best trial,
as good as the same sampler reaches in memory with the same budget (measured here). An
iterative sweep runs the README's tuner component, pushed to the hub, between its
iterations."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import optuna
import pytest

from axonal_optimization.domain.iterative import tuner_uuid
from axonal_optimization.domain.samplers import sampler_for
from axonal_optimization.domain.spaces import decode, distributions
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.parsing import load
from axonal_testing.stack import RunningStack
from axonal_testing.waiting import wait_for_sync

from .conftest import RUNS, done, get

pytestmark = pytest.mark.slow  # real processes on the embedded stack

EXAMPLES = Path(__file__).parents[2] / "examples"

BRANIN = """
import math, sys
from axonal import tracking
x, y = float(sys.argv[1]), float(sys.argv[2])
loss = (y - 5.1 / (4 * math.pi ** 2) * x ** 2 + 5 / math.pi * x - 6) ** 2 \\
    + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x) + 10
if len(sys.argv) > 3:
    loss += 10 / float(sys.argv[3])  # hyperband: more epochs, a better loss
tracking.log_metrics(loss=loss)
"""
MINIMIZE = "  metric: {name: loss, optimization: minimize}\n"
KINDS = {
    "tpe": ("  kind: tpe\n  numRuns: 16\n  concurrency: 2\n  seed: 7\n" + MINIMIZE, 16),
    "bayes": (
        "  kind: bayes\n  numInitialRuns: 4\n  maxIterations: 3\n  concurrency: 2\n  seed: 7\n"
        + MINIMIZE,
        10,
    ),
    "hyperband": (
        "  kind: hyperband\n  maxIterations: 9\n  eta: 3\n  concurrency: 3\n  seed: 7\n"
        "  resource: {name: epochs, type: int}\n" + MINIMIZE,
        22,
    ),
}


def branin(x: float, y: float) -> float:
    a = (y - 5.1 / (4 * math.pi**2) * x**2 + 5 / math.pi * x - 6) ** 2
    return a + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x) + 10


def sweep(matrix: str, *, epochs: bool) -> str:
    inputs = "[{name: x, type: float}, {name: y, type: float}"
    inputs += ", {name: epochs, type: int}]" if epochs else "]"
    args = '"{{ x }}", "{{ y }}"' + (', "{{ epochs }}"' if epochs else "")
    return f"""
version: 1.1
kind: operation
name: branin
matrix:
{matrix}  params:
    x: {{kind: uniform, value: [-5, 10]}}
    y: {{kind: uniform, value: [0, 15]}}
component:
  inputs: {inputs}
  run:
    kind: job
    init: [{{file: {{filename: branin.py, content: {json.dumps(BRANIN)}}}}}]
    container:
      image: python
      workingDir: "{{{{ globals.artifacts_path }}}}"
      command: [{json.dumps(sys.executable)}, branin.py, {args}]
"""


def in_memory_range(text: str, budget: int, seeds: range) -> tuple[float, float]:
    """The best value the same sampler reaches in memory, one trial at a time, over
    ``seeds``: (best, worst)."""
    compiled = compile_operation(load(text), CompileOptions()).model_dump(mode="json")
    space: dict[str, Any] = compiled["matrix"]["search_space"]
    found = []
    for seed in seeds:
        seeded = {**space, "seed": seed}
        study = optuna.create_study(sampler=sampler_for(seeded, trials_so_far=0))
        dists = distributions(space["params"])
        for _ in range(budget):
            trial = study.ask(dists)
            params = decode(space["params"], trial.params)
            study.tell(trial, branin(params["x"], params["y"]))
        found.append(study.best_value)
    return min(found), max(found)


def run_sweep(
    stack: RunningStack, source: Path
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any]]:
    """Submit the sweep of ``source``, wait for its end: the sweep, its trials, its study."""
    submitted = stack.cli("run", "-f", str(source), "--json", timeout=60)
    assert submitted.returncode == 0, submitted.stderr
    run_uuid = json.loads(submitted.stdout)["uuid"]
    with stack.http(timeout=10) as http:
        ended = wait_for_sync(lambda: done(http, run_uuid), timeout=300, message="sweep done")
        trials = get(http, RUNS, pipeline=run_uuid, limit=100)["runs"]
        study = get(http, f"{RUNS}/{run_uuid}/study")
    return ended, trials, study


@pytest.mark.parametrize("kind", list(KINDS))
def test_a_sweep_runs_its_budget_and_finds_what_its_sampler_finds(
    kind: str, stack: RunningStack, tmp_path: Path
) -> None:
    matrix, budget = KINDS[kind]
    text = sweep(matrix, epochs=kind == "hyperband")
    source = tmp_path / f"{kind}.yaml"
    source.write_text(text)
    ended, trials, study = run_sweep(stack, source)
    run_uuid = ended["uuid"]
    assert ended["status"] == "succeeded", ended
    assert len(trials) == budget
    assert {t["status"] for t in trials} == {"succeeded"}

    def loss(inputs: dict[str, Any]) -> float:
        extra = 10 / inputs["epochs"] if "epochs" in inputs else 0.0
        return branin(inputs["x"], inputs["y"]) + extra

    values = {t["uuid"]: loss(t["inputs"]) for t in trials}
    outputs = ended["outputs"]
    assert outputs["best_trial"] in values
    assert outputs["best_value"] == pytest.approx(min(values.values()))
    assert (study["state"], study["budget"], len(study["trials"])) == ("finished", budget, budget)
    compared = stack.cli_json("ops", "compare", "--sweep", run_uuid)
    assert {t["uuid"] for t in compared["trials"]} == set(values)
    shown = stack.cli("ops", "compare", "--sweep", run_uuid)
    assert f"{budget} trials, minimizing loss" in shown.stdout
    assert "best_value" in stack.cli("ops", "get", run_uuid).stdout
    if kind == "hyperband":  # each trial has its rung's resource
        epochs = sorted(t["inputs"]["epochs"] for t in trials)
        assert epochs == [1] * 9 + [3] * 8 + [9] * 5
        return
    best, worst = in_memory_range(text, budget, range(8))
    assert outputs["best_value"] <= worst, (outputs["best_value"], best, worst)


CURVE = """
import sys, time
from axonal import tracking
x = float(sys.argv[1])
for step in range(30):  # 7.5 s: time for the pruning watch (every 2 s) to see a bad curve
    tracking.log_metrics(loss=x + 1 / (step + 1), step=step)
    time.sleep(0.25)
"""
PRUNED_SWEEP = f"""
version: 1.1
kind: operation
name: curves
matrix:
  kind: tpe
  numRuns: 6
  concurrency: 2
  seed: 11
  metric: {{name: loss, optimization: minimize}}
  params:
    x: {{kind: choice, value: [1, 10]}}
  earlyStopping:
  - kind: metric_early_stopping
    metric: loss
    value: 0
    optimization: minimize
    policy: {{kind: median, evaluationInterval: 1, minSamples: 2}}
component:
  inputs: [{{name: x, type: float}}]
  run:
    kind: job
    init: [{{file: {{filename: curve.py, content: {json.dumps(CURVE)}}}}}]
    container:
      image: python
      workingDir: "{{{{ globals.artifacts_path }}}}"
      command: [{json.dumps(sys.executable)}, curve.py, "{{{{ x }}}}"]
"""


def test_pruning_stops_a_trial_worse_than_the_median_and_the_sweep_goes_on(
    stack: RunningStack, tmp_path: Path
) -> None:
    source = tmp_path / "pruned.yaml"
    source.write_text(PRUNED_SWEEP)
    ended, trials, study = run_sweep(stack, source)
    assert ended["status"] == "succeeded", ended
    assert len(trials) == 6
    stopped = [t for t in trials if t["status"] == "stopped"]
    assert stopped, [(t["inputs"], t["status"]) for t in trials]
    assert {t["reason"] for t in stopped} == {"Pruned"}
    assert {t["inputs"]["x"] for t in stopped} == {10}  # only the clearly worse ones
    pruned = {t["run_uuid"] for t in study["trials"] if t["state"] == "pruned"}
    assert pruned == {t["uuid"] for t in stopped}
    assert all(t["state"] in ("complete", "pruned") for t in study["trials"])


def test_an_iterative_sweep_runs_the_trials_its_tuner_suggests(stack: RunningStack) -> None:
    """The README's example: the tuner of ``examples/tuner.yaml`` pushed to the hub, and the
    sweep of ``examples/iterative-branin.yaml``."""
    component = str(EXAMPLES / "tuner.yaml")
    pushed = stack.cli("hub", "push", "-f", component, "--name", "acme/tuner:v1", timeout=60)
    assert pushed.returncode == 0, pushed.stderr
    source = EXAMPLES / "iterative-branin.yaml"
    submitted = stack.cli("run", "-f", str(source), "--json", timeout=60)
    assert submitted.returncode == 0, submitted.stderr
    run_uuid = json.loads(submitted.stdout)["uuid"]
    with stack.http(timeout=10) as http:
        ended = wait_for_sync(lambda: done(http, run_uuid), timeout=300, message="sweep done")
        trials = get(http, RUNS, pipeline=run_uuid, limit=100)["runs"]
        tuners = [get(http, f"{RUNS}/{tuner_uuid(run_uuid, i)}") for i in range(3)]
        study = get(http, f"{RUNS}/{run_uuid}/study")
    assert ended["status"] == "succeeded", (ended, tuners)
    assert sorted(t["name"] for t in trials) == [f"branin-{i}" for i in range(6)]
    assert {t["status"] for t in trials} == {"succeeded"}
    by_name = {t["name"]: t["inputs"] for t in trials}
    assert {(by_name[n]["x"], by_name[n]["y"]) for n in ("branin-0", "branin-1")} == {
        (2.5, 7.5),
        (-1.25, 3.75),
    }
    for i, ran in enumerate(tuners):
        assert (ran["name"], ran["status"]) == (f"branin-tuner-{i}", "succeeded")
        assert ran["inputs"]["iteration"] == i
        assert len(ran["inputs"]["trials"]) == 2 * i
        assert len(ran["outputs"]["suggestions"]) == 2
    values = {t["uuid"]: branin(t["inputs"]["x"], t["inputs"]["y"]) for t in trials}
    assert ended["outputs"]["best_trial"] == min(values, key=values.__getitem__)
    assert ended["outputs"]["best_value"] == pytest.approx(min(values.values()))
    assert (study["kind"], study["state"], len(study["trials"])) == ("iterative", "finished", 6)
    assert {t["state"] for t in study["trials"]} == {"complete"}
