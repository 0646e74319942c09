"""The agent's own start and stop (``ctx.on_startup`` / ``ctx.on_shutdown``).

Start: every attempt an earlier life of this agent (same name) left open is adopted when
the executor still runs it (a cluster's workload: :mod:`~axonal_agent.runs.adoption`), else
reported ``failed`` with reason ``AgentRestarted`` (a process it left behind is killed
first); what the executor launched for no open attempt is swept; folder deletions are
resumed, then work is taken and heartbeats begin. Stop: every process is stopped (its run
fails with ``AgentStopped``), but one that outlives the agent (a cluster's workload), which
is left running for the next life, and the final reports are sent.
"""

from __future__ import annotations

import asyncio
import contextlib
from functools import partial

import structlog

from axonal_agent.agent import attempt_key
from axonal_agent.context import Context
from axonal_agent.runs import adoption, cleanup, heartbeats, store
from axonal_agent.runs.reports import report
from axonal_bus.aio import cancel_and_wait
from axonal_bus.broker import jetstream
from axonal_bus.outbox import OutboxRelay
from axonal_db import transaction
from axonal_events import RunStatus

__all__ = ["RESTARTED", "RESTARTED_ALIVE", "reconcile", "register", "start", "stop"]

log = structlog.get_logger(__name__)

RESTARTED = "the agent restarted and the process was gone"
RESTARTED_ALIVE = "the agent restarted; the process it had left was stopped"


async def start(ctx: Context) -> None:
    """Reconcile what an earlier life left, then take work and heartbeat."""
    settings, agent = ctx.settings, ctx.agent
    await reconcile(ctx)
    await cleanup.resume(ctx)
    agent.ready.set()
    agent.heartbeat = asyncio.create_task(heartbeats.beat(ctx), name="agent-heartbeat")
    log.info("agent.ready", agent=settings.name, queues=settings.queues)


async def stop(ctx: Context) -> None:
    """Shut down: stop every process (their runs fail with ``AgentStopped``)."""
    agent = ctx.agent
    agent.ready.clear()
    if agent.heartbeat is not None:
        await cancel_and_wait([agent.heartbeat])
    for attempt in agent.attempts.values():
        attempt.shutting_down = True
        if ctx.executor.outlives_agent and attempt.process is not None:
            attempt.detach()
        else:
            attempt.request_stop(ctx.settings.stop_grace_seconds)
    await asyncio.gather(*agent.tasks.values(), return_exceptions=True)
    await cleanup.close(ctx)
    with contextlib.suppress(Exception):  # send the final reports before the service stops
        await OutboxRelay(ctx.pool, jetstream(ctx.broker)).drain()


async def reconcile(ctx: Context) -> int:
    """Adopt what an earlier life of this agent left running, report ``failed`` for the
    other attempts it left open (how many), sweep the rest."""
    name, agent = ctx.settings.name, ctx.agent
    count = 0
    async with ctx.pool.acquire() as conn:
        left = await store.unfinished(conn, name)
    for execution in left:
        if attempt_key(execution.run_uuid, execution.attempt) in agent.attempts:
            continue
        if ctx.executor.outlives_agent and await adoption.adopt(ctx, execution):
            continue
        alive = False
        if execution.pid is not None:
            alive = await ctx.executor.reap(execution.pid, execution.started_at)
        async with transaction(ctx.pool) as conn:
            if not await store.finish(conn, execution.run_uuid, execution.attempt, "failed"):
                continue
            await report(
                ctx,
                conn,
                execution.run_uuid,
                execution.attempt,
                RunStatus.FAILED,
                reason="AgentRestarted",
                message=RESTARTED_ALIVE if alive else RESTARTED,
            )
        count += 1
        log.warning("agent.reconciled", run_uuid=execution.run_uuid, was_alive=alive)
    under_way = [(a.command.run_uuid, a.command.attempt) for a in agent.attempts.values()]
    await adoption.sweep(ctx, under_way)
    return count


def register(ctx: Context) -> None:
    ctx.on_startup(partial(start, ctx))
    ctx.on_shutdown(partial(stop, ctx))
