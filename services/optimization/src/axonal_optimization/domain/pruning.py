"""Pruning: an ``earlyStopping`` policy of the file as an Optuna pruner, and the metric whose
intermediate values it reads.

``metric_early_stopping`` with a ``policy`` stops the trials the policy selects, not the sweep:
- ``median``: :class:`optuna.pruners.MedianPruner`: a trial whose best value so far is worse
  than the median of the complete trials at the same step (``evaluationInterval`` ->
  ``interval_steps``, ``minInterval`` -> ``n_warmup_steps``, ``minSamples`` ->
  ``n_startup_trials``, 5 by default);
- ``truncation`` ``percent``: :class:`optuna.pruners.PercentilePruner` at ``100 - percent``
  (the worst ``percent``, against the complete trials rather than the running ones);
- ``diff`` ``percent``: :class:`DiffPruner`, a trial worse than the best complete trial's value
  at that step by more than ``percent`` of it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import optuna
from optuna.pruners import BasePruner, MedianPruner, NopPruner, PercentilePruner
from optuna.study import StudyDirection
from optuna.trial import FrozenTrial, TrialState

__all__ = ["DiffPruner", "Pruning", "pruning"]


class DiffPruner(BasePruner):
    """Prunes a trial whose latest value is worse than the best complete trial's at that step
    by more than ``percent`` % of it."""

    def __init__(
        self, percent: float, *, interval: int = 1, warmup: int = 0, startup: int = 1
    ) -> None:
        self.percent, self.interval, self.warmup, self.startup = percent, interval, warmup, startup

    def prune(self, study: optuna.Study, trial: FrozenTrial) -> bool:
        step = trial.last_step
        if step is None or step < self.warmup or (step - self.warmup) % self.interval:
            return False
        complete = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
        at_step = [t.intermediate_values[step] for t in complete if step in t.intermediate_values]
        if len(complete) < self.startup or not at_step:
            return False
        value = trial.intermediate_values[step]
        minimize = study.direction is StudyDirection.MINIMIZE
        best = min(at_step) if minimize else max(at_step)
        if math.isnan(value):
            return True
        margin = abs(best) * self.percent / 100
        return value > best + margin if minimize else value < best - margin


class Pruning:
    """The pruner of a study and the metric it reads (``None``: the study does not prune)."""

    def __init__(self, pruner: BasePruner, metric: str | None) -> None:
        self.pruner, self.metric = pruner, metric


def _int(policy: Mapping[str, Any], key: str, default: int) -> int:
    value = policy.get(key)
    return int(value) if value is not None else default


def pruning(search_space: Mapping[str, Any]) -> Pruning:
    """The first ``metric_early_stopping`` with a ``policy`` as a pruner (none: no pruning)."""
    for rule in search_space.get("earlyStopping") or []:
        policy = rule.get("policy") if rule.get("kind") == "metric_early_stopping" else None
        if not policy:
            continue
        interval = _int(policy, "evaluationInterval", 1)
        warmup = _int(policy, "minInterval", 0)
        startup = _int(policy, "minSamples", 5)
        metric = str(rule["metric"])
        if policy["kind"] == "median":
            median = MedianPruner(
                n_startup_trials=startup, n_warmup_steps=warmup, interval_steps=interval
            )
            return Pruning(median, metric)
        if policy["kind"] == "truncation":
            percentile = PercentilePruner(
                100 - float(policy["percent"]),
                n_startup_trials=startup,
                n_warmup_steps=warmup,
                interval_steps=interval,
            )
            return Pruning(percentile, metric)
        if policy["kind"] == "diff":
            diff = DiffPruner(
                float(policy["percent"]), interval=interval, warmup=warmup, startup=startup
            )
            return Pruning(diff, metric)
    return Pruning(NopPruner(), None)
