"""Deletion and retention events: a project, a trace or a run is deleted; each service that
held its data confirms once with ``deletion.completed``; a project's retention or its quotas
changed."""

from __future__ import annotations

from pydantic import Field

from axonal_events.base import EventData
from axonal_events.quotas import QuotaLimits
from axonal_events.retention import DeletionScope, RetentionPolicy

__all__ = [
    "DeletionCompleted",
    "ProjectDeleted",
    "ProjectQuotasChanged",
    "ProjectRetentionChanged",
    "RunDeleted",
    "TraceDeleted",
]


class ProjectDeleted(EventData):
    """A project was deleted: every service deletes all it holds for it."""

    type_name = "project.deleted"

    project_id: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    name: str = Field(min_length=1)

    def subject_id(self) -> str | None:
        return self.project_id


class TraceDeleted(EventData):
    """An LLM trace was deleted (its observations and scores with it)."""

    type_name = "trace.deleted"

    project_id: str = Field(min_length=1)
    project: str = Field(description="``owner/name`` of the project.")
    trace_id: str = Field(min_length=1)

    def subject_id(self) -> str | None:
        return self.trace_id


class RunDeleted(EventData):
    """A run was deleted: its metrics, logs, artifacts, executions and lineage go with it."""

    type_name = "run.deleted"

    run_uuid: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    project: str = Field(min_length=1, description="The project's name (without the owner).")

    def subject_id(self) -> str | None:
        return self.run_uuid


class DeletionCompleted(EventData):
    """One service deleted all it held for a deletion (once per service and deletion)."""

    type_name = "deletion.completed"

    scope: DeletionScope
    target: str = Field(description="The project id, trace id or run uuid deleted.")
    request_id: str = Field(description="Id of the deletion event this confirms.")
    service: str = Field(min_length=1, description="The service that is done.")
    rows: int = Field(ge=0, description="Rows (and stored objects) it deleted.")

    def subject_id(self) -> str | None:
        return self.service


class ProjectRetentionChanged(EventData):
    """A project's retention changed; owning services keep the days they apply."""

    type_name = "project.retention.changed"

    project_id: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    name: str = Field(min_length=1)
    retention: RetentionPolicy

    def subject_id(self) -> str | None:
        return self.project_id


class ProjectQuotasChanged(EventData):
    """A project's quotas changed; the services enforcing them keep the limits they apply."""

    type_name = "project.quotas.changed"

    project_id: str = Field(min_length=1)
    owner: str = Field(min_length=1)
    name: str = Field(min_length=1)
    quotas: QuotaLimits

    def subject_id(self) -> str | None:
        return self.project_id
