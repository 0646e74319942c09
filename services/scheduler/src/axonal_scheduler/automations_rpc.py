"""Request/reply: create, list and delete automation rules; read their firings."""

from __future__ import annotations

import uuid

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events.automations import (
    AutomationInfo,
    AutomationList,
    AutomationSpec,
    DeleteAutomation,
    FiringList,
    ListAutomations,
    ListFirings,
)
from axonal_scheduler import automations_store
from axonal_spec import Resolvers, SpecError, load

__all__ = ["register"]


def _check_target(spec: AutomationSpec) -> None:
    """A rule's polyaxonfile must parse and its component exist, or it is refused now."""
    try:
        if spec.polyaxonfile is not None:
            load(spec.polyaxonfile)
        if spec.hub_ref is not None:
            Resolvers().hub.resolve(spec.hub_ref)
    except SpecError as exc:
        raise Permanent(f"invalid: {exc}") from None


def register(ctx: ServiceContext) -> None:
    async def create(spec: AutomationSpec) -> AutomationInfo:
        _check_target(spec)
        rule_id = uuid.uuid4().hex
        async with ctx.pool.acquire() as conn:
            if not await automations_store.create(conn, rule_id, spec.project, spec):
                raise Permanent(f"conflict: {spec.project} has an automation named {spec.name}")
            created = await automations_store.get(conn, spec.project, rule_id)
        assert created is not None  # just written
        return created

    async def list_rules(request: ListAutomations) -> AutomationList:
        async with ctx.pool.acquire() as conn:
            return AutomationList(
                automations=await automations_store.list_rules(conn, request.project)
            )

    async def delete(request: DeleteAutomation) -> AutomationList:
        async with ctx.pool.acquire() as conn:
            if not await automations_store.delete(conn, request.project, request.id):
                raise Permanent(f"not found: automation {request.id}")
            return AutomationList(
                automations=await automations_store.list_rules(conn, request.project)
            )

    async def firings(request: ListFirings) -> FiringList:
        async with ctx.pool.acquire() as conn:
            if await automations_store.get(conn, request.project, request.id) is None:
                raise Permanent(f"not found: automation {request.id}")
            found = await automations_store.firings(conn, request.id, request.limit)
        return FiringList(firings=found)

    ctx.serve_rpc("create_automation", AutomationSpec, create)
    ctx.serve_rpc("list_automations", ListAutomations, list_rules)
    ctx.serve_rpc("delete_automation", DeleteAutomation, delete)
    ctx.serve_rpc("automation_firings", ListFirings, firings)
