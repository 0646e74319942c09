"""Promotion gates: the scores an alias requires of the version it moves to.

A gate compares the version's latest score of a metric with a threshold; a version that
has no such score does not pass (evaluate it first).
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Mapping

from axonal_events.model_evaluations import GateOp, ModelVersionScore, PromotionGate

__all__ = ["latest_scores", "unmet"]

_COMPARE: dict[GateOp, Callable[[float, float], bool]] = {
    ">=": operator.ge,
    ">": operator.gt,
    "<=": operator.le,
    "<": operator.lt,
}


def latest_scores(scores: Iterable[ModelVersionScore]) -> dict[str, ModelVersionScore]:
    """The newest score of each metric."""
    latest: dict[str, ModelVersionScore] = {}
    for score in scores:
        known = latest.get(score.name)
        if known is None or score.recorded_at > known.recorded_at:
            latest[score.name] = score
    return latest


def unmet(
    alias: str,
    version: int,
    gates: Iterable[PromotionGate],
    latest: Mapping[str, ModelVersionScore],
) -> list[str]:
    """Why ``version`` may not take ``alias``: one reason per gate it fails (none: it may)."""
    reasons = []
    for gate in gates:
        score = latest.get(gate.metric)
        if score is None:
            reasons.append(
                f"alias {alias!r} requires {gate}: version {version} has no {gate.metric!r} "
                "score (record one with an evaluation run)"
            )
        elif not _COMPARE[gate.op](score.value, gate.threshold):
            source = f"run {score.run_uuid}" + (f" on {score.dataset}" if score.dataset else "")
            reasons.append(
                f"alias {alias!r} requires {gate}: version {version} scored {score.value:g} "
                f"({source})"
            )
    return reasons
