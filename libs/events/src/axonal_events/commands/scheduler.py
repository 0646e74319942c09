"""Commands the scheduler accepts."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import Field

from axonal_events.base import EventData
from axonal_events.catalog.run import RunStatus

__all__ = ["RUN_VERBS", "RunAction", "StatusReport", "SubmitRun"]

RUN_VERBS = ("stop", "restart", "resume", "approve", "skip", "delete")


class SubmitRun(EventData):
    """Create a run from polyaxonfile texts (merged in order), presets and params.

    ``run_uuid`` is chosen by the caller, so a retried submit creates the run once.
    """

    type_name: ClassVar[str] = "scheduler.submit"

    run_uuid: str = Field(min_length=32, max_length=36)
    owner: str = Field(min_length=1)
    project: str = Field(min_length=1)
    files: list[str] = Field(min_length=1, description="Polyaxonfile texts, merged in order.")
    presets: list[str] = Field(default_factory=list, description="Preset texts, applied after.")
    params: dict[str, Any] = Field(default_factory=dict, description="-P values.")
    queue: str | None = None
    name: str | None = None

    def subject_id(self) -> str | None:
        return self.run_uuid


class RunAction(EventData):
    """Stop, restart, resume, approve, skip or delete a run; the type is ``scheduler.<verb>``.

    ``new_run_uuid`` names the copy a ``restart`` creates (chosen by the caller); ``reason``
    says why a ``stop`` (``Pruned``: the optimization service stopped a trial), kept as the
    stopped run's reason.
    """

    type_name: ClassVar[str] = "scheduler.action"

    verb: Literal["stop", "restart", "resume", "approve", "skip", "delete"]
    run_uuid: str = Field(min_length=32, max_length=36)
    new_run_uuid: str | None = None
    reason: str | None = Field(default=None, pattern=r"^[A-Za-z]{1,64}$")

    def event_type(self) -> str:
        return f"scheduler.{self.verb}"

    def subject_id(self) -> str | None:
        return self.run_uuid


class StatusReport(EventData):
    """An agent reports what happened to an attempt of a run; the scheduler decides the status.

    ``outputs`` are the values the run logged (read from its outputs file at exit);
    ``log_lines`` is how many log lines the attempt produced, sent with its final status, so
    readers know when every line has been stored.
    """

    type_name: ClassVar[str] = "scheduler.report"

    run_uuid: str = Field(min_length=32, max_length=36)
    attempt: int = Field(ge=1)
    agent: str = Field(min_length=1)
    status: RunStatus
    reason: str | None = None
    message: str | None = None
    exit_code: int | None = None
    outputs: dict[str, Any] = Field(default_factory=dict)
    log_lines: int | None = Field(default=None, ge=0)
    endpoints: dict[str, str] = Field(
        default_factory=dict,
        description="A service's URLs once it answers, by declared port ('6006': 'http://...').",
    )

    def subject_id(self) -> str | None:
        return self.run_uuid
