"""Request/reply: create, list and delete a project's alert rules."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_events.metrics import (
    AlertRuleInfo,
    AlertRuleList,
    AlertRuleSpec,
    DeleteAlertRule,
    ListAlertRules,
)
from axonal_events.rpcs import Tracking
from axonal_tracking.alerts import store
from axonal_tracking.context import Context

__all__ = ["create_alert", "delete_alert", "list_alerts", "register"]


async def create_alert(ctx: Context, request: AlertRuleSpec) -> AlertRuleInfo:
    async with ctx.pool.acquire() as conn:
        return await store.create(conn, request)


async def list_alerts(ctx: Context, request: ListAlertRules) -> AlertRuleList:
    async with ctx.pool.acquire() as conn:
        return AlertRuleList(rules=await store.list_for(conn, request.project))


async def delete_alert(ctx: Context, request: DeleteAlertRule) -> AlertRuleList:
    """Delete the rule; the project's rules left."""
    async with ctx.pool.acquire() as conn:
        if not await store.delete(conn, request.project, request.id):
            raise NotFound(f"alert rule {request.id} does not exist in {request.project}")
        return AlertRuleList(rules=await store.list_for(conn, request.project))


def register(ctx: Context) -> None:
    ctx.serve(Tracking.create_alert, create_alert)
    ctx.serve(Tracking.list_alerts, list_alerts)
    ctx.serve(Tracking.delete_alert, delete_alert)
