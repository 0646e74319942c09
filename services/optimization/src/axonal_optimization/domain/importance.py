"""How much each param mattered to the objective: Optuna's default evaluator (PED-ANOVA)."""

from __future__ import annotations

import optuna
from optuna.trial import TrialState

__all__ = ["importances"]


def importances(study: optuna.Study) -> dict[str, float]:
    """Each param's importance (summing to 1); empty with fewer than two complete trials, or
    when every complete trial has the same value."""
    complete = [t for t in study.trials if t.state is TrialState.COMPLETE]
    if len(complete) < 2 or len({t.value for t in complete}) < 2:
        return {}
    found = optuna.importance.get_param_importances(study)
    return {name: float(value) for name, value in found.items()}
