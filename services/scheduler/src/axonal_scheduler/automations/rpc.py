"""Request/reply: create, list and delete automation rules; read their firings."""

from __future__ import annotations

import uuid

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_events.automations import (
    AutomationInfo,
    AutomationList,
    AutomationSpec,
    DeleteAutomation,
    FiringList,
    ListAutomations,
    ListFirings,
)
from axonal_events.rpcs import Scheduler
from axonal_scheduler.automations import store
from axonal_scheduler.context import Context
from axonal_scheduler.runs.components import fetch_component
from axonal_spec import SpecError, load

__all__ = [
    "automation_firings",
    "create_automation",
    "delete_automation",
    "list_automations",
    "register",
]


async def _check_target(ctx: Context, spec: AutomationSpec) -> None:
    """A rule's polyaxonfile must parse and its component exist (in the hub), or it is
    refused now."""
    try:
        if spec.polyaxonfile is not None:
            load(spec.polyaxonfile)
    except SpecError as exc:
        raise Invalid(f"the rule cannot start its run: {exc}") from None
    if spec.hub_ref is not None:
        found = await fetch_component(ctx, spec.hub_ref)
        if isinstance(found, SpecError):
            raise Invalid(f"the rule cannot start its run: {found}")


async def create_automation(ctx: Context, spec: AutomationSpec) -> AutomationInfo:
    await _check_target(ctx, spec)
    rule_id = uuid.uuid4().hex
    async with ctx.pool.acquire() as conn:
        if not await store.create(conn, rule_id, spec.project, spec):
            raise Conflict(f"{spec.project} has an automation named {spec.name} already")
        created = await store.get(conn, spec.project, rule_id)
    assert created is not None  # just written
    return created


async def list_automations(ctx: Context, request: ListAutomations) -> AutomationList:
    async with ctx.pool.acquire() as conn:
        return AutomationList(automations=await store.list_rules(conn, request.project))


async def delete_automation(ctx: Context, request: DeleteAutomation) -> AutomationList:
    async with ctx.pool.acquire() as conn:
        if not await store.delete(conn, request.project, request.id):
            raise NotFound(f"automation {request.id} does not exist in {request.project}")
        return AutomationList(automations=await store.list_rules(conn, request.project))


async def automation_firings(ctx: Context, request: ListFirings) -> FiringList:
    async with ctx.pool.acquire() as conn:
        if await store.get(conn, request.project, request.id) is None:
            raise NotFound(f"automation {request.id} does not exist in {request.project}")
        found = await store.firings(conn, request.id, request.limit)
    return FiringList(firings=found)


def register(ctx: Context) -> None:
    ctx.serve(Scheduler.create_automation, create_automation)
    ctx.serve(Scheduler.list_automations, list_automations)
    ctx.serve(Scheduler.delete_automation, delete_automation)
    ctx.serve(Scheduler.automation_firings, automation_firings)
