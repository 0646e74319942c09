"""Consumer of ``project.quotas.changed`` (durable ``scheduler-quotas``): the project's
concurrent runs are kept, and its queues admit again (a raised limit starts runs at once)."""

from __future__ import annotations

from axonal_bus.errors import Invalid
from axonal_db import transaction
from axonal_events import CloudEvent, EventData
from axonal_events.catalog import ProjectQuotasChanged
from axonal_scheduler.context import Context
from axonal_scheduler.quotas import store
from axonal_scheduler.runs import quota_store
from axonal_scheduler.runs.engine import Engine

__all__ = ["on_quotas_changed", "register"]


async def on_quotas_changed(ctx: Context, event: CloudEvent[EventData]) -> None:
    changed = event.data
    if not isinstance(changed, ProjectQuotasChanged):
        raise Invalid(f"expected project.quotas.changed, got {event.type}")
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        await store.save(conn, changed, event.time)
        for queue in sorted(await quota_store.queues_waiting(conn, changed.owner, changed.name)):
            await engine.admit(queue)
    await ctx.publish_committed(engine.tx.events)


def register(ctx: Context) -> None:
    ctx.consume_events(f"{ctx.name}-quotas", [ProjectQuotasChanged.type_name], on_quotas_changed)
