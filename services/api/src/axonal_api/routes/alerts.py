"""``/api/v1/{owner}/{project}/alerts``: metric alert rules of a project.

A rule fires one ``metric.crossed`` event each time a run's metric crosses it (see the
tracking service); hooks, notifications and early stopping consume those events.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.metrics import (
    AlertCondition,
    AlertRuleInfo,
    AlertRuleList,
    AlertRuleSpec,
    DeleteAlertRule,
    ListAlertRules,
)
from axonal_events.rpcs import Tracking

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/alerts", tags=["alerts"], responses=ERRORS)
RuleId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The rule's id.")]


@router.post("", status_code=201, summary="Create an alert rule")
async def create_alert(
    gw: GatewayDep, owner: Owner, project: Project, rule: AlertCondition
) -> AlertRuleInfo:
    spec = AlertRuleSpec(project=f"{owner}/{project}", **rule.model_dump())
    return await gw.call(Tracking.create_alert, spec)


@router.get("", summary="List the alert rules")
async def list_alerts(gw: GatewayDep, owner: Owner, project: Project) -> AlertRuleList:
    query = ListAlertRules(project=f"{owner}/{project}")
    return await gw.call(Tracking.list_alerts, query)


@router.delete("/{rule_id}", summary="Delete an alert rule; the rules left")
async def delete_alert(
    gw: GatewayDep, owner: Owner, project: Project, rule_id: RuleId
) -> AlertRuleList:
    query = DeleteAlertRule(project=f"{owner}/{project}", id=rule_id)
    return await gw.call(Tracking.delete_alert, query)
