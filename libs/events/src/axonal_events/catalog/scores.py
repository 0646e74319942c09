"""Scores the platform itself created: an evaluator's result or an annotator's.

The evaluation service emits them through its outbox, in the transaction that finished the
job or the queue item; tracking stores each one (its id makes a redelivery harmless), and
webhooks and automation rules react to them like to any event (``--where data.score.value<0.5``).
Scores that clients send over HTTP are ingested in batches and are not announced one by one.
"""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData
from axonal_events.traces import ScoreRecord

__all__ = ["ScoreCreated"]


class ScoreCreated(EventData):
    """A score was created by an evaluator (``source`` EVAL) or an annotator (ANNOTATION)."""

    type_name = "score.created"

    project_id: str = Field(min_length=1)
    project: str = Field(description="``owner/name`` of the project.")
    score: ScoreRecord
    job_id: str | None = Field(default=None, description="The evaluation job that made it.")

    def subject_id(self) -> str | None:
        return self.score.name
