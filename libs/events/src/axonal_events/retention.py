"""Retention and deletion payloads (the identity service owns a project's settings).

A project's retention says, per kind of data, how many days it is kept; ``None`` keeps it
for ever. The identity service announces every change (``project.retention.changed``) and
each service owning that kind of data keeps the days it needs and deletes what is older.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Literal

from pydantic import Field

from axonal_events.base import Payload

__all__ = [
    "DATA_KINDS",
    "DataKind",
    "DeleteProjectRequest",
    "DeleteTraceRequest",
    "DeletionAccepted",
    "DeletionScope",
    "ProjectRef",
    "ProjectRetention",
    "RetentionPolicy",
    "SetRetentionRequest",
]

DataKind = Literal["traces", "observations", "scores", "metrics", "logs", "artifacts"]
DATA_KINDS: tuple[DataKind, ...] = (
    "traces",
    "observations",
    "scores",
    "metrics",
    "logs",
    "artifacts",
)
DeletionScope = Literal["project", "trace", "run"]

_DAYS = Field(default=None, ge=1, le=36500, description="Days kept; none: kept for ever.")


class RetentionPolicy(Payload):
    """Days each kind of a project's data is kept (``None``: for ever)."""

    traces: int | None = _DAYS
    observations: int | None = _DAYS
    scores: int | None = _DAYS
    metrics: int | None = _DAYS
    logs: int | None = _DAYS
    artifacts: int | None = _DAYS

    def days(self, kind: DataKind) -> int | None:
        found: int | None = getattr(self, kind)
        return found

    def cutoff(self, kind: DataKind, now: datetime) -> datetime | None:
        """What of ``kind`` is older than this has expired at ``now``; ``None``: nothing."""
        days = self.days(kind)
        return None if days is None else now - timedelta(days=days)


class ProjectRef(Payload):
    owner: str = Field(min_length=1, max_length=64)
    name: str = Field(min_length=1, max_length=64)


class SetRetentionRequest(ProjectRef):
    retention: RetentionPolicy


class ProjectRetention(Payload):
    project_id: str
    owner: str
    name: str
    retention: RetentionPolicy
    updated_at: datetime | None = None


class DeleteProjectRequest(ProjectRef):
    pass


class DeletionAccepted(Payload):
    """A deletion was accepted: every service deletes its data and confirms it with
    ``deletion.completed`` (``request_id`` names the deletion event)."""

    scope: DeletionScope
    target: str = Field(description="The project id, trace id or run uuid deleted.")
    request_id: str = Field(description="Id of the deletion event the services confirm.")


class DeleteTraceRequest(Payload):
    project_id: str = Field(min_length=1)
    project: str = Field(pattern=r"^[^/\s]+/[^/\s]+$", description="``owner/name``.")
    trace_id: str = Field(min_length=1, max_length=200)
