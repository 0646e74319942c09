"""The study in memory (ask, tell, rebuild from rows), a finished trial's result, and which
hyperband trials start next."""

from __future__ import annotations

import pytest

from axonal_optimization.domain.bracket_steps import BracketTrial, Launch, launches
from axonal_optimization.domain.hyperband import Hyperband
from axonal_optimization.domain.results import trial_result
from axonal_optimization.domain.studies import LiveStudy, TrialRecord, objective

from .optimization_support import search_space

TPE = """
kind: tpe
numRuns: 12
concurrency: 3
seed: 3
metric: {name: loss, optimization: minimize}
params:
  x: {kind: uniform, value: [-5, 10]}
  units: {kind: choice, value: [16, 32, 64]}
"""


def test_a_study_rebuilt_from_its_rows_holds_what_the_first_learned() -> None:
    space = search_space(TPE)
    first = LiveStudy(space)
    asked = first.ask(5)
    assert [n for n, _ in asked] == [0, 1, 2, 3, 4]
    assert all(p["units"] in (16, 32, 64) and -5 <= p["x"] <= 10 for _, p in asked)
    rows = []
    for number, params in asked[:4]:
        first.tell(number, "complete", params["x"] ** 2)
        rows.append(TrialRecord(number, params, "complete", params["x"] ** 2))
    rows.append(TrialRecord(4, asked[4][1], "running"))
    rebuilt = LiveStudy(space, rows)
    assert rebuilt.counts() == first.counts() == (5, 1)
    assert rebuilt.best() == first.best()
    ((number, _),) = rebuilt.ask(1)
    assert number == 5  # numbering goes on where the rows stop
    rebuilt.tell(4, "failed")
    assert rebuilt.counts() == (6, 1)
    assert rebuilt.budget.total == 12


def test_the_objective_is_required_and_maximized_by_default() -> None:
    assert objective({"metric": {"name": "acc"}}) == ("acc", "maximize")
    with pytest.raises(ValueError, match=r"matrix\.metric"):
        objective({"kind": "tpe"})


@pytest.mark.parametrize(
    ("status", "outputs", "latest", "expected"),
    [
        ("succeeded", {"loss": 0.5}, {}, ("complete", 0.5, None)),
        ("succeeded", {}, {"loss": 0.25}, ("complete", 0.25, None)),
        (
            "succeeded",
            {"loss": "NaN"},
            {},
            ("failed", None, "its loss is 'NaN', not a finite number"),
        ),
        (
            "succeeded",
            {},
            {},
            ("failed", None, "the trial logged no loss (as an output or a metric)"),
        ),
        ("failed", {"loss": 0.1}, {}, ("failed", None, "the trial ended failed")),
    ],
)
def test_a_finished_trial_counts_with_its_value_or_fails_with_why(
    status, outputs, latest, expected
):
    assert trial_result(status, None, "loss", outputs, latest) == expected


def _trial(number, bracket, rung, config, state="complete", value=1.0) -> BracketTrial:
    return BracketTrial(number, bracket, rung, config, state, value, {"x": number})


def test_hyperband_starts_a_rung_as_far_as_concurrency_allows_then_promotes_the_best() -> None:
    plan = Hyperband(9, 3, maximize=False)  # 9x1 -> 3x3 -> 1x9 | 5x3 -> 1x9 | 3x9
    assert launches(plan, [], 4) == [Launch(0, 0, 1)] * 4
    started = [_trial(n, 0, 0, n, state="running", value=None) for n in range(4)]
    assert launches(plan, started, 4) == []  # all slots taken
    first_rung = [_trial(n, 0, 0, n, value=float(9 - n)) for n in range(9)]
    assert launches(plan, first_rung[:8], 4) == [Launch(0, 0, 1)]  # the 9th configuration
    promoted = launches(plan, first_rung, 4)
    assert promoted is not None
    assert [(p.rung, p.resource, p.config) for p in promoted] == [(1, 3, 8), (1, 3, 7), (1, 3, 6)]
    assert promoted[0].params == {"x": 8}  # the configuration's own params, run again
    assert launches(plan, [], 0) == []
