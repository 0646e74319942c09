"""Consumers: runs heard of (``run.created``) and metric batches (``ingest.metrics.<run>``).

Rules for what arrives: a batch that is not a valid :class:`MetricBatch` (wrong types, a bad
name, more than 10,000 points, oversized strings) is dead-lettered at once (NaN and infinities
are values like any other)
with the validation error as its reason. A batch of a run not heard of yet is retried with a
growing delay (its ``run.created`` may still be on its way) and dead-lettered as
``unknown run`` when the retries are spent. Each batch is one insert, evaluated against the
project's alert rules in the same transaction (crossings leave through the outbox), and
acknowledged after commit (see :mod:`axonal_tracking.metrics.ingest`).
"""

from __future__ import annotations

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.retry import RetryPolicy
from axonal_events import CloudEvent, EventData, RunStatus, RunStatusChanged, StreamKind
from axonal_tracking.context import Context
from axonal_tracking.domain.points import Batch
from axonal_tracking.domain.runs import KnownRun
from axonal_tracking.metrics import ingest, store
from axonal_tracking.metrics.wire import decode_batch

__all__ = ["UNKNOWN_RUN_POLICY", "on_batch", "on_run_created", "register"]

#: Retries of a batch whose run is unknown: about two minutes in all, then the DLQ.
UNKNOWN_RUN_POLICY = RetryPolicy(max_deliver=8, base_delay=0.5, max_delay=60.0)


async def on_run_created(ctx: Context, event: CloudEvent[EventData]) -> None:
    """Remember the run, its project and its tags: its points can now be stored."""
    data, project = event.data, event.project
    if not isinstance(data, RunStatusChanged) or data.status is not RunStatus.CREATED:
        return
    if project:
        async with ctx.pool.acquire() as conn:
            await store.record_run(conn, KnownRun(data.run_uuid, project, data.tags))


async def on_batch(ctx: Context, batch: Batch) -> None:
    await ingest.store_batch(ctx, batch)


def register(ctx: Context) -> None:
    ctx.consume_events(f"{ctx.name}-runs", ["run.created"], on_run_created)
    spec: ConsumerSpec[Batch] = ConsumerSpec(
        durable=f"{ctx.name}-metrics",
        filter_subjects=[ctx.subjects.ingest("metrics.>")],
        decode=decode_batch,
        stream=StreamKind.INGEST,
        policy=UNKNOWN_RUN_POLICY,
        batch_size=32,
        ack_wait=30.0,
        max_ack_pending=256,
    )
    ctx.consume(spec, on_batch)
