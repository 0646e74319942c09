"""``/api/v1/{owner}/{project}/automations``: rules that start or restart runs on events.

A rule watches platform events (``run.failed``) or those outside systems post to
``/events`` (``external``), and starts an operation with params read from the event, or
restarts a failed run once (see the scheduler service). Every firing is recorded.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.automations import (
    AutomationConfig,
    AutomationInfo,
    AutomationList,
    AutomationSpec,
    DeleteAutomation,
    FiringList,
    ListAutomations,
    ListFirings,
)
from axonal_events.rpcs import Scheduler

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/{owner}/{project}/automations", tags=["automations"], responses=ERRORS
)
AutomationId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The rule's id.")]


@router.post("", status_code=201, summary="Create an automation rule")
async def create_automation(
    gw: GatewayDep, owner: Owner, project: Project, rule: AutomationConfig
) -> AutomationInfo:
    spec = AutomationSpec(project=f"{owner}/{project}", **rule.model_dump())
    return await gw.call(Scheduler.create_automation, spec)


@router.get("", summary="List the automation rules")
async def list_automations(gw: GatewayDep, owner: Owner, project: Project) -> AutomationList:
    query = ListAutomations(project=f"{owner}/{project}")
    return await gw.call(Scheduler.list_automations, query)


@router.delete("/{automation_id}", summary="Delete a rule and its firings; the rules left")
async def delete_automation(
    gw: GatewayDep, owner: Owner, project: Project, automation_id: AutomationId
) -> AutomationList:
    query = DeleteAutomation(project=f"{owner}/{project}", id=automation_id)
    return await gw.call(Scheduler.delete_automation, query)


@router.get("/{automation_id}/firings", summary="The newest firings of a rule")
async def list_firings(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    automation_id: AutomationId,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> FiringList:
    query = ListFirings(project=f"{owner}/{project}", id=automation_id, limit=limit)
    return await gw.call(Scheduler.automation_firings, query)
