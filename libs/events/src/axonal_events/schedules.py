"""Schedules of a project (RPCs of the scheduler): list, pause, resume, backfill.

A schedule is a run of kind ``schedule`` (a polyaxonfile with a ``schedule`` section) that
creates one run per slot; stopping that run removes the schedule.
"""

from __future__ import annotations

from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload

__all__ = [
    "Backfill",
    "BackfillResult",
    "ListSchedules",
    "ScheduleAction",
    "ScheduleInfo",
    "ScheduleList",
    "ScheduleVerb",
]

_PROJECT = r"^[^/\s]+/[^/\s]+$"


class ScheduleInfo(Payload):
    """A schedule: its run, its timetable, and where its clock stands."""

    run_uuid: str
    project: str
    name: str | None = None
    status: str = Field(description="The schedule run's status (running while it fires).")
    kind: str = Field(description="cron, interval or datetime.")
    spec: dict[str, Any] = Field(description="The polyaxonfile's schedule section.")
    next_fire_at: datetime | None = Field(description="The next slot; none once it fires no more.")
    fired: int = Field(description="Runs created so far.")
    paused: bool = False
    waiting_on: str | None = Field(
        default=None, description="dependsOnPast: the run whose success the next firing waits for."
    )
    last_run_uuid: str | None = None


class ScheduleList(Payload):
    schedules: list[ScheduleInfo]


class ListSchedules(Payload):
    project: str = Field(pattern=_PROJECT)


class ScheduleVerb(StrEnum):
    PAUSE = "pause"
    RESUME = "resume"


class ScheduleAction(Payload):
    """Pause a schedule, or resume it (which also releases a ``dependsOnPast`` hold)."""

    project: str = Field(pattern=_PROJECT)
    run_uuid: str
    verb: ScheduleVerb


class Backfill(Payload):
    """Create the runs of a schedule's slots from ``start`` to ``end`` (each slot once)."""

    project: str = Field(pattern=_PROJECT)
    run_uuid: str
    start: datetime
    end: datetime

    @field_validator("start", "end")
    @classmethod
    def _aware(cls, value: datetime) -> datetime:
        """A time without a zone is UTC."""
        return value if value.tzinfo else value.replace(tzinfo=UTC)

    @model_validator(mode="after")
    def _ordered(self) -> Backfill:
        if self.end < self.start:
            raise ValueError("end: the window ends before it starts")
        return self


class BackfillResult(Payload):
    run_uuids: list[str] = Field(description="The runs of the window's slots, in slot order.")
    created: int = Field(description="How many of them this backfill created.")
