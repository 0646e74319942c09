"""Consumers: ``trace.ingested`` (durable ``evaluation-online``) makes the jobs of the active
rules; ``cmd.evaluation.run_job`` (durable ``evaluation-jobs``) runs each once it is due;
``run.done`` (durable ``evaluation-evaluator-runs``) ends the jobs of code evaluators.

A job not due yet goes back to JetStream with a delayed nak for the time left (no timer, no
polling); a job that runs keeps its message in progress, so a killed service's jobs are
redelivered after ``ack_wait`` and not before.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime

from faststream.nats import NatsMessage

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Invalid
from axonal_bus.retry import RetryPolicy
from axonal_evaluation.context import Context
from axonal_evaluation.evaluators import code, online, runner, store
from axonal_events import CloudEvent, EventData, StreamKind
from axonal_events.catalog.registry import Catalog
from axonal_events.catalog.run import RunDone
from axonal_events.catalog.traces import TraceIngested
from axonal_events.evaluators import RunEvalJob

__all__ = ["JOB_COMMANDS", "on_run_done", "on_run_job", "on_trace_ingested", "register"]

JOB_COMMANDS = Catalog()
JOB_COMMANDS.register(RunEvalJob)
_ACK_WAIT = 10.0
_POLICY = RetryPolicy()


def _online(ctx: Context) -> str:
    return f"{ctx.name}-online"


async def on_trace_ingested(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, TraceIngested):
        raise Invalid(f"expected trace.ingested, got {event.type}")
    await online.ingested(ctx, _online(ctx), event.id, event.data)


async def _keep_in_progress(message: NatsMessage) -> None:
    while True:
        await asyncio.sleep(_ACK_WAIT / 3)
        await message.in_progress()


async def on_run_job(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, RunEvalJob):
        raise Invalid(f"expected evaluation.run_job, got {event.type}")
    async with ctx.pool.acquire() as conn:
        job = await store.job(conn, None, event.data.job_id)
    if job is None or job.state in ("succeeded", "failed"):
        return
    message: NatsMessage = ctx.broker.context.get_local("message")
    wait = (job.due_at - datetime.now(UTC)).total_seconds()
    if wait > 0:
        await message.nack(delay=wait)  # back when due; the consumer's ack is then a no-op
        return
    beat = asyncio.create_task(_keep_in_progress(message))
    try:
        await runner.run(ctx, job)
    except Exception as exc:
        delivered = message.raw_message.metadata.num_delivered
        if not _POLICY.exhausted(delivered):
            raise  # tried again later
        reason = f"{type(exc).__name__}: {exc} (after {delivered} deliveries)"
        await runner.give_up(ctx, job, reason)  # the job says why, rather than stay running
    finally:
        beat.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await beat


async def on_run_done(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, RunDone):
        raise Invalid(f"expected run.done, got {event.type}")
    await code.run_done(ctx, event.data)


def register(ctx: Context) -> None:
    ctx.consume_events(f"{ctx.name}-evaluator-runs", ["run.done"], on_run_done)
    ctx.consume_events(
        _online(ctx), ["trace.ingested"], on_trace_ingested, workers=16, ack_wait=15.0
    )
    spec = ConsumerSpec(
        durable=f"{ctx.name}-jobs",
        filter_subjects=[online.run_job_subject(ctx)],
        decode=JOB_COMMANDS.decode,
        stream=StreamKind.COMMANDS,
        batch_size=64,
        ack_wait=_ACK_WAIT,
        max_ack_pending=10_000,
        workers=ctx.settings.job_workers,
        policy=_POLICY,
    )
    ctx.consume(spec, on_run_job)
