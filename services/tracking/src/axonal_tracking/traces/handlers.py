"""Consumers of ``ingest.traces.<project>`` and of ``score.created``: each batch (or score)
merged into the stored rows, and a ``trace.ingested`` for the traces it changed, in one
transaction.

A batch that is not a valid :class:`TraceBatch` is dead-lettered at once with the reason
(see :mod:`axonal_tracking.traces.wire`); a valid one is merged (see
:mod:`axonal_tracking.traces.ingest`) and acknowledged after commit. Each replica merges two
batches at once: Python's work on one overlaps PostgreSQL's on the other.
"""

from __future__ import annotations

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Invalid
from axonal_bus.outbox import enqueue_many
from axonal_db import transaction
from axonal_events import CloudEvent, EventData, StreamKind, new_event
from axonal_events.catalog.scores import ScoreCreated
from axonal_tracking.context import Context
from axonal_tracking.traces.ingest import store_batch
from axonal_tracking.traces.wire import ReceivedBatch, decode_trace_batch, scores_batch

__all__ = ["on_batch", "on_score_created", "register"]


async def on_batch(ctx: Context, received: ReceivedBatch) -> None:
    async with transaction(ctx.pool) as conn:
        changed = await store_batch(conn, received)
        project = received.project
        events = [new_event(data, source=ctx.source, project=project) for data in changed]
        await enqueue_many(conn, ctx.subjects, events)


async def on_score_created(ctx: Context, event: CloudEvent[EventData]) -> None:
    """An evaluator's or annotator's score, stored like an ingested one (once: by its id)."""
    if not isinstance(event.data, ScoreCreated):
        raise Invalid(f"expected score.created, got {event.type}")
    data = event.data
    await on_batch(ctx, scores_batch(data.project_id, data.project, [data.score]))


def register(ctx: Context) -> None:
    spec: ConsumerSpec[ReceivedBatch] = ConsumerSpec(
        durable=f"{ctx.name}-traces",
        filter_subjects=[ctx.subjects.ingest("traces.>")],
        decode=decode_trace_batch,
        stream=StreamKind.INGEST,
        batch_size=16,
        ack_wait=60.0,
        max_ack_pending=256,
        workers=2,  # one batch is merged while PostgreSQL stores another
    )
    ctx.consume(spec, on_batch)
    ctx.consume_events(f"{ctx.name}-scores", ["score.created"], on_score_created)
