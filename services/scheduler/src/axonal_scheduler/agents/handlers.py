"""Consumer: agent heartbeats (durable ``scheduler-agents``).

Each heartbeat is recorded, arms its agent's deadline timer (three missed intervals, kept in
``ctx.agent_deadlines``) and checks every other agent, so a dead agent is found by its own
timer or by any live one's next heartbeat, even after a scheduler restart.
"""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from axonal_db import transaction
from axonal_events import AgentHeartbeat, CloudEvent, EventData
from axonal_scheduler.agents import store
from axonal_scheduler.agents.lost import fail_lost_agents
from axonal_scheduler.context import Context
from axonal_scheduler.domain.liveness import deadline
from axonal_scheduler.runs.engine import Engine

__all__ = ["on_heartbeat", "register", "sweep"]

#: Past the deadline before the timer's sweep, so the agent is surely overdue by then.
_MARGIN = 0.05


async def sweep(ctx: Context) -> None:
    """Fail the started runs of every agent past its deadline, in one transaction."""
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        await fail_lost_agents(engine, datetime.now(UTC))
    await ctx.publish_committed(engine.tx.events)


async def on_heartbeat(ctx: Context, event: CloudEvent[EventData]) -> None:
    beat = event.data
    if not isinstance(beat, AgentHeartbeat):
        return
    async with transaction(ctx.pool) as conn:
        await store.record_heartbeat(conn, beat)
    delay = (deadline(beat.at, beat.interval_seconds) - datetime.now(UTC)).total_seconds()
    ctx.agent_deadlines.arm(beat.agent, max(0.0, delay) + _MARGIN, partial(sweep, ctx))
    await sweep(ctx)


def register(ctx: Context) -> None:
    ctx.consume_events(f"{ctx.name}-agents", ["agent.heartbeat"], on_heartbeat, ack_wait=10.0)
    ctx.on_shutdown(ctx.agent_deadlines.close)
