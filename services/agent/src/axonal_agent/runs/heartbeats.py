"""``agent.heartbeat`` events: the agent's queues, slots, free slots and runs, every
``heartbeat_seconds``, published directly (a missed beat is not worth the outbox)."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime

from axonal_agent.context import Context
from axonal_bus.broker import jetstream
from axonal_bus.outbox import event_headers
from axonal_events import AgentHeartbeat, new_event

__all__ = ["beat", "heartbeat"]


def heartbeat(ctx: Context) -> AgentHeartbeat:
    settings, agent = ctx.settings, ctx.agent
    return AgentHeartbeat(
        agent=settings.name,
        queues=list(settings.queues),
        slots=agent.ledger.capacity.as_dict(),
        free_slots=agent.ledger.free.as_dict(),
        runs=agent.runs(),
        interval_seconds=settings.heartbeat_seconds,
        at=datetime.now(UTC),
    )


async def beat(ctx: Context) -> None:
    """Publish a heartbeat every ``heartbeat_seconds`` until cancelled."""
    js = jetstream(ctx.broker)
    while True:
        event = new_event(heartbeat(ctx), source=f"/axonal/agent/{ctx.settings.name}")
        with contextlib.suppress(Exception):
            await js.publish(
                ctx.subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
            )
        await asyncio.sleep(ctx.settings.heartbeat_seconds)
