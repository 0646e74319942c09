"""Consumers: scheduler commands (submit, actions, reports) and log batches."""

from __future__ import annotations

from typing import Any

import structlog
from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.errors import Permanent
from axonal_bus.inbox import process_once
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import CloudEvent, EventData, StreamKind
from axonal_events.commands import COMMANDS, RunAction, StatusReport, SubmitRun
from axonal_events.logs import LogBatch
from axonal_scheduler import actions, store
from axonal_scheduler.engine import Engine
from axonal_scheduler.lifecycle import Tx
from axonal_scheduler.settings import SchedulerSettings
from axonal_scheduler.submit import submit

__all__ = ["register"]

log = structlog.get_logger(__name__)


def decode_batch(raw: bytes) -> LogBatch:
    try:
        return LogBatch.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a log batch: {exc.errors()[0]['msg']}") from None


def register(ctx: ServiceContext, settings: SchedulerSettings) -> None:
    source = f"/axonal/{ctx.name}"

    async def apply(conn: Connection, data: EventData) -> None:
        engine = Engine(Tx(conn, ctx.subjects, source), settings)
        if isinstance(data, SubmitRun):
            await submit(engine, data)
        elif isinstance(data, StatusReport):
            await engine.report(data)
        elif isinstance(data, RunAction):
            await actions.act(engine, data)
        else:
            log.info("scheduler.command_ignored", type=type(data).__name__)

    async def on_command(event: CloudEvent[EventData]) -> None:
        async def effect(conn: Connection) -> Any:
            await apply(conn, event.data)

        await process_once(ctx.pool, ctx.name, event.id, effect)

    commands: ConsumerSpec[CloudEvent[EventData]] = ConsumerSpec(
        durable=ctx.name,
        filter_subjects=[ctx.subjects.commands(ctx.name)],
        decode=COMMANDS.decode,
        stream=StreamKind.COMMANDS,
        batch_size=1,  # one decision at a time: runs, queues and pipelines stay consistent
        ack_wait=30.0,
    )
    inbox = ctx.subjects.inbox_prefix(ctx.name)
    subscribe(ctx.broker, ctx.subjects, commands, on_command, inbox_prefix=inbox)

    async def on_logs(batch: LogBatch) -> None:
        async with transaction(ctx.pool) as conn:
            await store.insert_logs(conn, batch)

    logs: ConsumerSpec[LogBatch] = ConsumerSpec(
        durable=f"{ctx.name}-logs",
        filter_subjects=[ctx.subjects.ingest("logs.>")],
        decode=decode_batch,
        stream=StreamKind.INGEST,
        batch_size=64,
        ack_wait=10.0,
    )
    subscribe(ctx.broker, ctx.subjects, logs, on_logs, inbox_prefix=inbox)
