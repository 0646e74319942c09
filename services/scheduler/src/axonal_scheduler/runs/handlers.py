"""Consumer: scheduler commands (``cmd.scheduler.*``): submit, agents' reports, run actions,
the optimization service's trials.

One durable (``scheduler``), one command at a time per replica, each applied once
(inbox-deduplicated by envelope id) in one transaction with the events it emits. Once a
user's command (submit, action) is applied, a notice on ``<ns>.applied.<command id>`` tells
the api, which answers its client only then: the client's next read sees its write.
"""

from __future__ import annotations

from functools import partial

import structlog

from axonal_bus.broker import core
from axonal_bus.consumer import ConsumerSpec
from axonal_bus.inbox import process_once
from axonal_bus.outbox import PendingEvents
from axonal_db import Connection
from axonal_events import CloudEvent, EventData, StreamKind
from axonal_events.commands import COMMANDS, AddTrials, RunAction, StatusReport, SubmitRun
from axonal_scheduler.context import Context
from axonal_scheduler.runs import actions, pipelines
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.submit import submit

__all__ = ["apply", "on_command", "register"]

log = structlog.get_logger(__name__)


async def apply(ctx: Context, data: EventData, conn: Connection) -> PendingEvents:
    """What one command does, inside the transaction ``conn``; the events to publish."""
    async with Engine.within(conn, ctx) as engine:
        if isinstance(data, SubmitRun):
            await submit(engine, data)
        elif isinstance(data, StatusReport):
            await engine.report(data)
        elif isinstance(data, RunAction):
            await actions.act(engine, data)
        elif isinstance(data, AddTrials):
            await pipelines.add_trials(engine, data)
        else:
            log.info("scheduler.command_ignored", type=type(data).__name__)
    return engine.tx.events


async def on_command(ctx: Context, event: CloudEvent[EventData]) -> None:
    _, events = await process_once(ctx.pool, ctx.name, event.id, partial(apply, ctx, event.data))
    if events is not None:
        await ctx.publish_committed(events)
    if isinstance(event.data, SubmitRun | RunAction):  # applied now, or by an earlier delivery
        await core(ctx.broker).publish(ctx.subjects.applied(event.id), b"")


def register(ctx: Context) -> None:
    spec = ConsumerSpec(
        durable=ctx.name,
        filter_subjects=[ctx.subjects.commands(ctx.name)],
        decode=COMMANDS.decode,
        stream=StreamKind.COMMANDS,
        batch_size=1,  # one decision at a time: runs, queues and pipelines stay consistent
        ack_wait=30.0,
    )
    ctx.consume(spec, on_command)
