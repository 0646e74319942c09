"""Consumers: runs heard of (``run.created``) and metric batches (``ingest.metrics.<run>``).

Rules for what arrives: a batch that is not a valid :class:`MetricBatch` (wrong types, a bad
name, NaN or infinity, more than 10,000 points, oversized strings) is dead-lettered at once
with the validation error as its reason. A batch of a run not heard of yet is retried with a
growing delay (its ``run.created`` may still be on its way) and dead-lettered as
``unknown run`` when the retries are spent. Each batch is one insert, evaluated against the
project's alert rules in the same transaction (crossings leave through the outbox), and
acknowledged after commit.
"""

from __future__ import annotations

from axonal_bus.consumer import ConsumerSpec, subscribe, subscribe_events
from axonal_bus.errors import Retryable
from axonal_bus.retry import RetryPolicy
from axonal_bus.service import ServiceContext
from axonal_db import transaction
from axonal_events import CloudEvent, EventData, RunStatus, RunStatusChanged, StreamKind
from axonal_tracking import alerting, store
from axonal_tracking.wire import Batch, decode_batch

__all__ = ["register"]

#: Retries of a batch whose run is unknown: about two minutes in all, then the DLQ.
UNKNOWN_RUN_POLICY = RetryPolicy(max_deliver=8, base_delay=0.5, max_delay=60.0)
_KNOWN_RUNS = 100_000


def register(ctx: ServiceContext) -> None:
    inbox = ctx.subjects.inbox_prefix(ctx.name)

    async def on_run(event: CloudEvent[EventData]) -> None:
        data, project = event.data, event.project
        if not isinstance(data, RunStatusChanged) or data.status is not RunStatus.CREATED:
            return
        if project:
            async with ctx.pool.acquire() as conn:
                await store.record_run(conn, store.KnownRun(data.run_uuid, project, data.tags))

    subscribe_events(
        ctx.broker,
        ctx.subjects,
        durable=f"{ctx.name}-runs",
        event_types=["run.created"],
        handler=on_run,
        inbox_prefix=inbox,
    )

    known: dict[str, store.KnownRun] = {}  # runs seen (a run never moves)

    async def on_batch(batch: Batch) -> None:
        async with transaction(ctx.pool) as conn:
            run = known.get(batch.run_uuid) or await store.known_run(conn, batch.run_uuid)
            if run is None:
                raise Retryable(f"unknown run {batch.run_uuid}")
            if len(known) >= _KNOWN_RUNS:
                known.clear()
            known[batch.run_uuid] = run
            await store.insert_points(conn, batch)
            await alerting.evaluate(conn, ctx.subjects, run, batch)

    metrics: ConsumerSpec[Batch] = ConsumerSpec(
        durable=f"{ctx.name}-metrics",
        filter_subjects=[ctx.subjects.ingest("metrics.>")],
        decode=decode_batch,
        stream=StreamKind.INGEST,
        policy=UNKNOWN_RUN_POLICY,
        batch_size=32,
        ack_wait=30.0,
        max_ack_pending=256,
    )
    subscribe(ctx.broker, ctx.subjects, metrics, on_batch, inbox_prefix=inbox)
