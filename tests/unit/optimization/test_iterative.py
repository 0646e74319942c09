"""An iterative search's pure parts: what it needs to start, the operation of each tuner run
(compiled here against a tuner component, as the scheduler does), the check of what a tuner
suggests, and the best trial."""

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from axonal_optimization.domain import iterative
from axonal_optimization.domain.results import best_outputs
from axonal_optimization.domain.studies import TrialRecord
from axonal_spec import CompileOptions, Resolvers, compile_operation, load
from axonal_spec.hub import LocalHub

from .optimization_support import search_space

SPACE = search_space(
    """
    kind: iterative
    maxIterations: 3
    concurrency: 2
    metric: {name: loss, optimization: minimize}
    tuner:
      hubRef: acme/tuner:v1
      queue: cpu
      presets: [small]
      params: {depth: {value: 4}}
    params:
      x: {kind: uniform, value: [-5, 10]}
      units: {kind: range, value: "8:40:8"}
      act: {kind: choice, value: [relu, tanh]}
    """
)
TUNER = """
kind: component
name: tuner
inputs:
  - {name: matrix, type: dict}
  - {name: iteration, type: int}
  - {name: trials, type: list}
  - {name: depth, type: int, value: 1, isOptional: true}
outputs:
  - {name: suggestions, type: list}
run:
  kind: job
  container:
    image: python
    command: [python, tuner.py, "{{ params.trials.as_arg }}", "--matrix={{ params.matrix.as_str }}"]
"""


def test_a_search_needs_its_tuner_its_metric_and_searchable_params():
    iterative.check(SPACE)
    for space, why in [
        ({**SPACE, "tuner": None}, "matrix.tuner: an iterative search needs its tuner component"),
        ({**SPACE, "tuner": {"queue": "cpu"}}, "needs its tuner component \\(hubRef\\)"),
        (
            {**SPACE, "tuner": {"hubRef": "t", "params": {"trials": {"value": []}}}},
            "matrix.tuner.params.trials: the search gives the tuner its trials",
        ),
        ({**SPACE, "metric": None}, "matrix.metric: an adaptive search needs the metric"),
        ({**SPACE, "params": {"x": {"kind": "warp"}}}, "params.x: cannot search"),
    ]:
        with pytest.raises(ValueError, match=why):
            iterative.check(space)
    assert iterative.max_iterations(SPACE) == 3


def test_each_iteration_has_its_own_tuner_run_and_trial_runs():
    sweep = "a" * 32
    assert iterative.tuner_uuid(sweep, 0) == iterative.tuner_uuid(sweep, 0)
    uuids = {iterative.tuner_uuid(sweep, i) for i in range(3)}
    uuids |= {iterative.trial_uuid(sweep, i) for i in range(3)}
    assert len(uuids) == 6
    assert iterative.tuner_name("branin", sweep, 2) == "branin-tuner-2"
    assert iterative.tuner_name(None, sweep, 0) == "aaaaaaaaaaaa-tuner-0"


def test_the_trials_input_holds_the_ended_trials_in_order():
    records = [
        TrialRecord(1, {"x": 2.0}, "failed"),
        TrialRecord(2, {"x": 3.0}, "running"),
        TrialRecord(0, {"x": 1.0}, "complete", 0.5),
    ]
    assert iterative.finished(records) == [
        {"index": 0, "params": {"x": 1.0}, "state": "complete", "value": 0.5},
        {"index": 1, "params": {"x": 2.0}, "state": "failed", "value": None},
    ]


def test_the_tuner_operation_gives_the_component_its_inputs(tmp_path: Path):
    trials = [{"index": 0, "params": {"x": 1.5, "units": 8, "act": "relu"}, "state": "complete",
               "value": 0.25}]  # fmt: skip
    text = iterative.operation(SPACE, 1, trials)
    doc = json.loads(text)
    assert (doc["kind"], doc["hubRef"], doc["presets"]) == ("operation", "acme/tuner:v1", ["small"])
    assert doc["params"]["depth"] == {"value": 4}

    (tmp_path / "tuner").mkdir()
    (tmp_path / "tuner" / "v1.yaml").write_text(TUNER)
    options = CompileOptions(resolvers=Resolvers(hub=LocalHub(tmp_path)), uuid="b" * 32)
    compiled = compile_operation(load(text), options).model_dump(mode="json")
    inputs = {io["name"]: io["value"] for io in compiled["inputs"]}
    assert inputs == {"matrix": SPACE, "iteration": 1, "trials": trials, "depth": 4}
    command = compiled["run"]["container"]["command"]
    assert json.loads(command[2].removeprefix("--trials=")) == trials
    assert json.loads(command[3].removeprefix("--matrix=")) == SPACE


def test_suggestions_are_param_dicts_within_the_search_space():
    params = SPACE["params"]
    good = [{"x": -5, "units": 16, "act": "tanh"}, {"x": 9.5, "units": 32, "act": "relu"}]
    assert iterative.suggestions({"suggestions": good}, params) == good
    assert iterative.suggestions({"suggestions": json.dumps(good)}, params) == good
    assert iterative.suggestions({"suggestions": []}, params) == []
    assert iterative.suggestions({"suggestions": [{"a": 1}]}, {}) == [{"a": 1}]  # no space


@pytest.mark.parametrize(
    ("outputs", "why"),
    [
        ({"loss": 1}, "it wrote no `suggestions` output"),
        ({"suggestions": None}, "`suggestions` must be a list of param dicts, not null"),
        ({"suggestions": "[{"}, "`suggestions` is not JSON"),
        ({"suggestions": {"x": 1}}, "must be a list of param dicts, not a dict"),
        ({"suggestions": [{"x": 1, "units": 8, "act": "relu"}, 3]}, r"suggestions\[1\]: a dict"),
        ({"suggestions": [{"x": 20, "units": 8, "act": "relu"}]},
         r"suggestions\[0\]: params\.x: 20 is not within \[-5, 10\]"),
        ({"suggestions": [{"x": 1, "units": 12, "act": "relu"}]},
         r"suggestions\[0\]: params\.units: 12 is not one of the 4 values"),
        ({"suggestions": [{"x": 1, "units": 8}]}, r"suggestions\[0\]: params\.act: no value"),
        ({"suggestions": [{"x": 1, "units": 8, "act": "relu", "lr": 0.1}]},
         r"suggestions\[0\]: params\.lr: not a param of the search \(x, units, act\)"),
    ],
)  # fmt: skip
def test_a_suggestion_out_of_the_space_says_which_and_why(outputs: dict[str, Any], why: str):
    with pytest.raises(ValueError, match=why):
        iterative.suggestions(outputs, SPACE["params"])


@dataclass(frozen=True)
class Stored:
    number: int
    state: str
    value: float | None
    run_uuid: str = ""
    params: dict[str, Any] = field(default_factory=dict)


def test_the_best_trial_is_the_first_of_the_best_complete_ones():
    trials = [
        Stored(0, "complete", 3.0, "r0", {"x": 0}),
        Stored(1, "failed", None, "r1"),
        Stored(2, "complete", 1.0, "r2", {"x": 2}),
        Stored(3, "complete", 1.0, "r3", {"x": 3}),
        Stored(4, "pruned", 0.1, "r4"),
    ]
    best = best_outputs("loss", trials, maximize=False)
    assert best == {"best_trial": "r2", "best_value": 1.0, "best_params": {"x": 2}, "loss": 1.0}
    assert best_outputs("acc", trials, maximize=True)["best_trial"] == "r0"
    assert best_outputs("loss", trials[1:2], maximize=False) == {}
