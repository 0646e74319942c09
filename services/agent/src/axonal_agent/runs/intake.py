"""What an offered ``ExecuteRun`` does: take the attempt within the free slots, once.

An attempt is taken when its resources fit the free slots: its execution row is written
once per command (the inbox of the consumer), then it runs in a task of its own until its
final report. A run asked to stop before it started, or one whose resources (requests or
limits) cannot be read, is closed without running. One that does not fit is left for later
(the consumer offers it again).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import structlog

from axonal_agent.agent import Attempt, attempt_key
from axonal_agent.context import Context
from axonal_agent.domain.resources import run_limits, run_resources
from axonal_agent.runs import attempt as attempts
from axonal_agent.runs import cleanup, store
from axonal_agent.runs.reports import report
from axonal_bus.inbox import process_once
from axonal_db import Connection
from axonal_events import CloudEvent, RunStatus
from axonal_events.commands import ExecuteRun

__all__ = ["accept"]

log = structlog.get_logger(__name__)


async def accept(ctx: Context, event: CloudEvent[ExecuteRun], consumer: str) -> bool:
    """Take the attempt if it fits in the free slots; ``False``: offer it again later.

    ``True`` also when there is nothing to run: a duplicate, a run asked to stop, a run
    whose resources cannot be read (closed and reported).
    """
    agent = ctx.agent
    await agent.ready.wait()
    cmd = event.data
    key = attempt_key(cmd.run_uuid, cmd.attempt)
    if key in agent.attempts:
        return True
    if agent.stop_requested(cmd.run_uuid):
        why = "stopped before it started"
        await process_once(ctx.pool, consumer, event.id, _closed(ctx, cmd, "stopped", why))
        return True
    try:
        need = run_resources(cmd.run)
        run_limits(cmd.run)  # the attempt applies them: an unreadable one fails it now
    except ValueError as exc:
        why = f"resources: {exc}"
        await process_once(ctx.pool, consumer, event.id, _closed(ctx, cmd, "failed", why))
        return True
    if not agent.ledger.reserve(key, need):
        log.info("agent.no_slots", run_uuid=cmd.run_uuid, need=need.as_dict())
        return False
    folder = ctx.settings.work_root / cmd.run_uuid / str(cmd.attempt)
    attempt = Attempt(cmd, folder, event.correlationid)

    async def record(conn: Connection) -> bool:
        return await store.insert(
            conn,
            cmd.run_uuid,
            cmd.attempt,
            ctx.settings.name,
            cmd.queue,
            str(folder),
            cmd.ttl_seconds,
            f"{cmd.owner}/{cmd.project}",
        )

    try:
        applied, added = await process_once(ctx.pool, consumer, event.id, record)
    except BaseException:
        agent.ledger.release(key)
        raise
    if not (applied and added):
        agent.ledger.release(key)
        return True
    agent.attempts[key] = attempt
    agent.tasks[key] = asyncio.create_task(
        cleanup.after(ctx, attempt, attempts.run(ctx, attempt)), name=f"run-{key}"
    )
    return True


def _closed(
    ctx: Context, cmd: ExecuteRun, status: str, why: str
) -> Callable[[Connection], Awaitable[None]]:
    """An effect that records the attempt as done without running it, and reports it."""

    async def effect(conn: Connection) -> None:
        folder = str(ctx.settings.work_root / cmd.run_uuid / str(cmd.attempt))
        project = f"{cmd.owner}/{cmd.project}"
        if await store.insert(
            conn, cmd.run_uuid, cmd.attempt, ctx.settings.name, cmd.queue, folder, project=project
        ):
            await store.finish(conn, cmd.run_uuid, cmd.attempt, status)
            await report(
                ctx,
                conn,
                cmd.run_uuid,
                cmd.attempt,
                RunStatus(status),
                project=f"{cmd.owner}/{cmd.project}",
                reason="Stopped" if status == "stopped" else "InvalidSpec",
                message=why,
            )

    return effect
