"""Pruning: the file's ``earlyStopping`` policies as Optuna pruners, and a study that reports
intermediate values and says which running trial to stop."""

from __future__ import annotations

from optuna.pruners import MedianPruner, NopPruner, PercentilePruner

from axonal_optimization.domain.pruning import DiffPruner, pruning
from axonal_optimization.domain.studies import LiveStudy, TrialRecord

from .optimization_support import search_space

PLAIN = """
kind: tpe
numRuns: 2
metric: {name: loss}
params: {x: {kind: uniform, value: [0, 1]}}
"""


def _space(policy: str) -> dict:
    return search_space(f"""
kind: tpe
numRuns: 10
seed: 1
metric: {{name: loss, optimization: minimize}}
params:
  x: {{kind: uniform, value: [0, 1]}}
earlyStopping:
- kind: metric_early_stopping
  metric: loss
  value: 0.0001
  optimization: minimize
  policy: {policy}
""")


def test_each_policy_becomes_its_pruner() -> None:
    median = pruning(_space("{kind: median, evaluationInterval: 2, minInterval: 3, minSamples: 4}"))
    assert isinstance(median.pruner, MedianPruner)
    assert median.metric == "loss"
    truncation = pruning(_space("{kind: truncation, percent: 25, evaluationInterval: 1}"))
    assert isinstance(truncation.pruner, PercentilePruner)
    diff = pruning(_space("{kind: diff, percent: 50, evaluationInterval: 1, minSamples: 1}"))
    assert isinstance(diff.pruner, DiffPruner)
    plain = pruning(search_space(PLAIN))
    assert isinstance(plain.pruner, NopPruner)
    assert plain.metric is None


def _curve(level: float) -> dict[int, float]:
    return {step: level + 1 / (step + 1) for step in range(6)}


def test_a_trial_worse_than_the_median_of_complete_trials_is_pruned() -> None:
    space = _space("{kind: median, evaluationInterval: 1, minSamples: 2}")
    rows = [
        TrialRecord(0, {"x": 0.1}, "complete", 0.2, _curve(0.1)),
        TrialRecord(1, {"x": 0.2}, "complete", 0.3, _curve(0.2)),
        TrialRecord(2, {"x": 0.9}, "running"),
        TrialRecord(3, {"x": 0.15}, "running"),
    ]
    study = LiveStudy(space, rows)  # rebuilt: the complete trials keep their curves
    study.report(2, {0: 5.0, 1: 4.0})
    study.report(3, {0: 1.05, 1: 0.6})
    assert study.should_prune(2)
    assert not study.should_prune(3)
    study.report(2, {1: 4.0, 2: 3.9})  # a step seen again is ignored
    assert study.should_prune(2)


def test_the_diff_policy_prunes_what_trails_the_best_by_more_than_its_percent() -> None:
    space = _space("{kind: diff, percent: 50, evaluationInterval: 1, minSamples: 1}")
    rows = [
        TrialRecord(0, {"x": 0.1}, "complete", 1.0, {0: 2.0, 1: 1.0}),
        TrialRecord(1, {"x": 0.5}, "running"),
        TrialRecord(2, {"x": 0.6}, "running"),
    ]
    study = LiveStudy(space, rows)
    study.report(1, {0: 2.9})  # within 50 % of 2.0
    study.report(2, {0: 3.1})
    assert not study.should_prune(1)
    assert study.should_prune(2)
