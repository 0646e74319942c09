"""Run lifecycle events: one event per status transition, and ``run.done``."""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["DONE_STATUSES", "RunDone", "RunStatus", "RunStatusChanged"]


class RunStatus(StrEnum):
    """Statuses of a run, as in Polyaxon (``done`` is virtual and has its own event)."""

    CREATED = "created"
    RESUMING = "resuming"
    ON_SCHEDULE = "on_schedule"
    COMPILED = "compiled"
    QUEUED = "queued"
    SCHEDULED = "scheduled"
    STARTING = "starting"
    RUNNING = "running"
    PROCESSING = "processing"
    STOPPING = "stopping"
    FAILED = "failed"
    STOPPED = "stopped"
    SUCCEEDED = "succeeded"
    SKIPPED = "skipped"
    WARNING = "warning"
    UNSCHEDULABLE = "unschedulable"
    UPSTREAM_FAILED = "upstream_failed"
    RETRYING = "retrying"
    UNKNOWN = "unknown"


DONE_STATUSES = frozenset(
    {
        RunStatus.SUCCEEDED,
        RunStatus.FAILED,
        RunStatus.STOPPED,
        RunStatus.SKIPPED,
        RunStatus.UPSTREAM_FAILED,
    }
)


class _RunFact(EventData):
    run_uuid: str = Field(min_length=1, description="The run this event is about.")
    project: str = Field(min_length=1, description="Owner/project the run belongs to.")
    name: str | None = Field(default=None, description="The run's name.")
    kind: str | None = Field(default=None, description="Runtime kind: job, service, dag, ...")
    pipeline_uuid: str | None = Field(default=None, description="Parent DAG or matrix run.")
    tags: list[str] = Field(default_factory=list, description="The run's tags.")

    def subject_id(self) -> str | None:
        return self.run_uuid


class RunStatusChanged(_RunFact):
    """A run entered a new status; the event type is ``run.<status>``."""

    type_name = "run.status_changed"

    status: RunStatus
    previous_status: RunStatus | None = None
    reason: str | None = Field(default=None, description="Machine-readable cause.")
    message: str | None = Field(default=None, description="Human-readable detail.")
    occurred_at: datetime

    def event_type(self) -> str:
        return f"run.{self.status.value}"


class RunDone(_RunFact):
    """A run reached a final status: the single fan-out point for DAGs, hooks and tuners."""

    type_name = "run.done"

    status: RunStatus = Field(description="The final status.")
    started_at: datetime | None = None
    finished_at: datetime
    duration_seconds: float | None = Field(default=None, ge=0)
    outputs: dict[str, object] = Field(default_factory=dict, description="Logged outputs.")
