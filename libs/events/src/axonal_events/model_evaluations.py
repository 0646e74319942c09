"""Evaluations of model versions (RPCs of the registry).

An evaluation run scores a model version on a dataset version; the registry keeps each
score with the run and the dataset it came from. An alias can require scores of the
versions it moves to (``production`` requires ``accuracy >= 0.9``): a promotion that a
version's latest scores do not meet is refused, naming the gate and the score.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from axonal_events.base import Payload
from axonal_events.model_registry import ALIAS_PATTERN, ModelRef

__all__ = [
    "SCORE_NAME_PATTERN",
    "GateOp",
    "ModelVersionScore",
    "ModelVersionScores",
    "PromotionGate",
    "PromotionGates",
    "ReadModelScores",
    "RecordModelScores",
    "ScoreName",
    "ScoreValue",
    "SetPromotionGates",
]

SCORE_NAME_PATTERN = r"^[A-Za-z0-9_][A-Za-z0-9_.\-/]{0,199}$"
_RUN_UUID = r"^[0-9a-f]{32}$"

GateOp = Literal[">=", ">", "<=", "<"]
ScoreName = Annotated[str, StringConstraints(pattern=SCORE_NAME_PATTERN)]
ScoreValue = Annotated[float, Field(allow_inf_nan=False)]


class PromotionGate(Payload):
    """A score the version must have, compared with a threshold."""

    metric: str = Field(pattern=SCORE_NAME_PATTERN)
    op: GateOp
    threshold: float = Field(allow_inf_nan=False)

    def __str__(self) -> str:
        return f"{self.metric} {self.op} {self.threshold:g}"


class SetPromotionGates(ModelRef):
    """Replace the gates of one alias (none: the alias requires nothing)."""

    alias: str = Field(pattern=ALIAS_PATTERN)
    gates: list[PromotionGate] = Field(default_factory=list, max_length=20)


class PromotionGates(Payload):
    model: str
    gates: dict[str, list[PromotionGate]] = Field(description="By alias.")


class RecordModelScores(ModelRef):
    """Scores an evaluation run measured for a version (by number or alias)."""

    ref: str = Field(min_length=1, description="3, v3 or an alias.")
    run_uuid: str = Field(pattern=_RUN_UUID)
    dataset: str | None = Field(
        default=None, max_length=300, description="The dataset version: name@sha256."
    )
    scores: dict[ScoreName, ScoreValue] = Field(min_length=1, max_length=100)


class ReadModelScores(ModelRef):
    ref: str = Field(min_length=1, description="3, v3 or an alias.")


class ModelVersionScore(Payload):
    name: str
    value: float
    run_uuid: str
    dataset: str | None = None
    recorded_at: datetime


class ModelVersionScores(Payload):
    model: str
    version: int
    scores: list[ModelVersionScore] = Field(description="Newest first.")
