"""Evaluation events: an evaluation job finished (its score, or why it failed)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["EvalJobDone"]


class EvalJobDone(EventData):
    """An evaluation job reached ``succeeded`` (with its score) or ``failed`` (with why)."""

    type_name = "evaluation.job.done"

    project_id: str = Field(min_length=1)
    job_id: str = Field(min_length=1)
    rule_id: str = Field(min_length=1)
    trace_id: str = Field(min_length=1)
    observation_id: str | None = None
    state: Literal["succeeded", "failed"]
    score_id: str | None = None
    score_value: float | None = None
    reason: str | None = None

    def subject_id(self) -> str | None:
        return self.job_id
