"""Agent heartbeats: remember them, and fail the runs of an agent that stopped beating.

Each heartbeat arms a timer for its agent's deadline (three missed intervals) and also
checks every other agent, so a dead agent is found by its own timer or by any live one's
next heartbeat, even after a scheduler restart.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import structlog

from axonal_bus.consumer import subscribe_events
from axonal_bus.service import ServiceContext
from axonal_db import transaction
from axonal_events import AgentHeartbeat, CloudEvent, EventData, RunStatus
from axonal_scheduler import agents_store, store
from axonal_scheduler.domain.liveness import MISSED_HEARTBEATS, deadline
from axonal_scheduler.domain.statuses import ACTIVE
from axonal_scheduler.engine import Engine
from axonal_scheduler.lifecycle import Tx
from axonal_scheduler.settings import SchedulerSettings

__all__ = ["register"]

log = structlog.get_logger(__name__)


def register(ctx: ServiceContext, settings: SchedulerSettings) -> None:
    source = f"/axonal/{ctx.name}"
    timers: dict[str, asyncio.TimerHandle] = {}

    async def sweep() -> None:
        """Fail the active runs of every agent past its deadline."""
        now = datetime.now(UTC)
        async with transaction(ctx.pool) as conn:
            engine = Engine(Tx(conn, ctx.subjects, source), settings)
            for name in await agents_store.lost_agents(conn, now, MISSED_HEARTBEATS):
                await agents_store.mark_lost(conn, name, now)
                active = [s.value for s in ACTIVE - {RunStatus.SCHEDULED}]  # started ones
                for uuid in await agents_store.runs_of(conn, name, active):
                    run = await store.lock_run(conn, uuid)
                    if run is None:
                        continue
                    status = RunStatus.STOPPED if run.status is RunStatus.STOPPING else None
                    message = f"agent {name} stopped sending heartbeats"
                    await engine.set(run, status or RunStatus.FAILED, "AgentLost", message)
                log.warning("scheduler.agent_lost", agent=name)

    def arm(beat: AgentHeartbeat) -> None:
        if (old := timers.pop(beat.agent, None)) is not None:
            old.cancel()
        delay = (deadline(beat.at, beat.interval_seconds) - datetime.now(UTC)).total_seconds()
        loop = asyncio.get_running_loop()
        timers[beat.agent] = loop.call_later(
            max(0.0, delay) + 0.05, lambda: loop.create_task(sweep())
        )

    async def on_heartbeat(event: CloudEvent[EventData]) -> None:
        beat = event.data
        if not isinstance(beat, AgentHeartbeat):
            return
        async with transaction(ctx.pool) as conn:
            await agents_store.record_heartbeat(conn, beat)
        arm(beat)
        await sweep()

    subscribe_events(
        ctx.broker,
        ctx.subjects,
        durable=f"{ctx.name}-agents",
        event_types=["agent.heartbeat"],
        handler=on_heartbeat,
        inbox_prefix=ctx.subjects.inbox_prefix(ctx.name),
        ack_wait=10.0,
    )
