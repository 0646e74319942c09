"""``/api/v1/{owner}/{project}/schedules``: a project's schedules, paused, resumed, backfilled.

A schedule is a run of kind ``schedule``; it is created by submitting a polyaxonfile with a
``schedule`` section, and removed by stopping its run (``POST .../runs/{uuid}/stop``).
"""

from __future__ import annotations

from datetime import UTC, datetime

from fastapi import APIRouter
from pydantic import BaseModel, Field, model_validator

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid
from axonal_events.rpcs import Scheduler
from axonal_events.schedules import (
    Backfill,
    BackfillResult,
    ListSchedules,
    ScheduleAction,
    ScheduleInfo,
    ScheduleList,
    ScheduleVerb,
)

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/{owner}/{project}/schedules", tags=["schedules"], responses=ERRORS
)


def _aware(moment: datetime) -> datetime:
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


class Window(BaseModel):
    """The slots to backfill: from ``start`` to ``end`` included (a time without a zone is UTC)."""

    start: datetime
    end: datetime = Field(description="Slots after it are left to the clock.")

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if _aware(self.end) < _aware(self.start):
            raise ValueError("end: the window ends before it starts")
        return self


@router.get("", summary="List the schedules, with their next fire time")
async def list_schedules(gw: GatewayDep, owner: Owner, project: Project) -> ScheduleList:
    return await gw.call(Scheduler.list_schedules, ListSchedules(project=f"{owner}/{project}"))


@router.post("/{run_uuid}/backfill", summary="Create the runs of a past window's slots")
async def backfill(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid, window: Window
) -> BackfillResult:
    """Each slot has one run whatever creates it: a second backfill creates none."""
    request = Backfill(
        project=f"{owner}/{project}", run_uuid=run_uuid, start=window.start, end=window.end
    )
    return await gw.call(Scheduler.backfill, request)


# after backfill, which its path would take
@router.post("/{run_uuid}/{verb}", summary="Pause or resume a schedule")
async def act(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid, verb: ScheduleVerb
) -> ScheduleInfo:
    """Resuming also releases a schedule that ``dependsOnPast`` holds after a failed run."""
    action = ScheduleAction(project=f"{owner}/{project}", run_uuid=run_uuid, verb=verb)
    return await gw.call(Scheduler.act_on_schedule, action)
