"""Consumers: ``ExecuteRun`` work per queue, and the ``run.stopping`` observer.

Neither is a plain ``ctx.consume``: see :mod:`axonal_agent.runs.subscriptions` for how each
is subscribed and why.
"""

from __future__ import annotations

from typing import Any, cast

import structlog

from axonal_agent.context import Context
from axonal_agent.runs import intake, store
from axonal_agent.runs.subscriptions import consume_queue, observe
from axonal_bus.deletion import Purges, consume_deletions
from axonal_bus.errors import Permanent
from axonal_db import Connection
from axonal_events import CloudEvent, RunStatusChanged
from axonal_events.catalog import ProjectDeleted, RunDeleted
from axonal_events.commands import COMMANDS, ExecuteRun

__all__ = [
    "decode_execute",
    "on_execute",
    "on_stopping",
    "purge_project",
    "purge_run",
    "register",
]

log = structlog.get_logger(__name__)


def decode_execute(raw: bytes) -> CloudEvent[ExecuteRun]:
    """An ``agent.execute`` command; anything else is dead-lettered."""
    event = COMMANDS.decode(raw)
    if not isinstance(event.data, ExecuteRun):
        raise Permanent(f"{event.type} is not an agent.execute command")
    return cast("CloudEvent[ExecuteRun]", event)


async def on_execute(ctx: Context, event: CloudEvent[ExecuteRun], durable: str) -> bool:
    """An attempt offered on ``durable``: ``True`` once it is taken (or closed without
    running), ``False`` while it does not fit the free slots."""
    return await intake.accept(ctx, event, durable)


async def on_stopping(ctx: Context, event: CloudEvent[Any]) -> None:
    """A ``run.stopping`` event: stop that run if it executes here, never start it later."""
    if not isinstance(event.data, RunStatusChanged):
        return
    run_uuid = event.data.run_uuid
    ctx.agent.remember_stop(run_uuid)
    found = ctx.agent.attempts_of(run_uuid)
    for attempt in found:
        attempt.request_stop(ctx.settings.stop_grace_seconds)
    if found:
        log.info("run.stopping", run_uuid=run_uuid)


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    return await store.delete_project(conn, f"{project.owner}/{project.name}")


async def purge_run(conn: Connection, run: RunDeleted) -> int:
    return await store.delete_run(conn, run.run_uuid)


def register(ctx: Context) -> None:
    for queue in ctx.settings.queues:
        consume_queue(ctx, queue, decode_execute, on_execute)
    observe(ctx, "run.stopping", on_stopping, title="agent-stopping")
    consume_deletions(ctx, Purges(project=purge_project, run=purge_run))
