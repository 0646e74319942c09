"""Adaptive searches as read: a sweep's study, its trials in order, the best one, and how much
each param mattered."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from axonal_events.base import Payload

__all__ = ["GetStudy", "StudyTrial", "StudyView"]


class GetStudy(Payload):
    sweep_uuid: str = Field(min_length=32, max_length=36)


class StudyTrial(Payload):
    number: int
    run_uuid: str
    params: dict[str, Any]
    state: Literal["running", "complete", "failed", "pruned"]
    value: float | None = None
    reason: str | None = None


class StudyView(Payload):
    """The optimisation history (trials in the order they were suggested) and the params'
    importances (Optuna's evaluator, over the complete trials; empty before two)."""

    sweep_uuid: str
    kind: str
    state: Literal["running", "finished", "ended"]
    reason: str | None = None
    metric: str | None = None
    direction: Literal["minimize", "maximize"] = "minimize"
    budget: int | None = Field(default=None, description="Trials the search runs in all.")
    trials: list[StudyTrial]
    best_trial: int | None = Field(default=None, description="The best complete trial's number.")
    importances: dict[str, float] = Field(default_factory=dict)
    approximations: list[str] = Field(
        default_factory=list, description="Params whose kind the sampler only approximates."
    )
