"""Consumer of ``ingest.traces.<project>``: merge each batch's records into stored rows.

A batch that is not a valid :class:`TraceBatch` is dead-lettered at once with the reason
(see :mod:`axonal_tracking.traces_wire`).
Records of one id are merged in event-time order with what is stored (see
:mod:`axonal_tracking.domain.trace_merge`); rows whose state did not change are not written,
so a redelivered batch changes nothing. A ``trace.ingested`` listing every trace whose trace,
observations or scores changed leaves through the outbox, in the same transaction.
Each replica merges two batches at once, in two transactions that write ids in one order and
lock the ids they merge, as replicas do.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.outbox import enqueue_many
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import StreamKind, new_event
from axonal_events.catalog.traces import MAX_TRACES_PER_EVENT, IngestedTrace, TraceIngested
from axonal_traces.pricing import Pricing
from axonal_tracking import models_store, traces_store
from axonal_tracking.domain.trace_merge import Update, merge
from axonal_tracking.domain.trace_rows import observation_row, score_row, trace_row
from axonal_tracking.tokens import count_tokens
from axonal_tracking.traces_wire import ReceivedBatch, ReceivedRecord, decode_trace_batch

__all__ = ["register", "store_batch"]

SOURCE = "/axonal/tracking"
_EARLIEST = {"traces": frozenset({"timestamp"})}


def _by_id(records: Sequence[ReceivedRecord]) -> dict[str, list[Update]]:
    grouped: dict[str, list[Update]] = defaultdict(list)
    for entity_id, at, fields in records:
        grouped[entity_id].append((at, fields))
    return grouped


async def _merge(
    conn: Connection,
    table: traces_store.Table,
    project_id: str,
    records: Sequence[ReceivedRecord],
    to_row: Callable[[str, dict[str, Any]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Merge ``records`` into ``table``; the rows that changed.

    Every entity is first inserted as if it were new, which for most costs one statement and
    no lock; the ids already stored are then locked (so replicas merge one id in turn), read,
    merged and written back when their state changed."""
    grouped = _by_id(records)
    earliest = _EARLIEST.get(table, frozenset())
    fresh = {i: to_row(i, merge(None, found, earliest=earliest)) for i, found in grouped.items()}
    inserted = await traces_store.insert_new(conn, table, list(fresh.values()))
    known = [i for i in grouped if i not in inserted]
    if not known:
        return list(fresh.values())
    await traces_store.lock_ids(conn, project_id, (f"{table}:{i}" for i in known))
    stored = await traces_store.states(conn, table, project_id, known)
    updated = []
    for entity_id in known:
        state = stored.get(entity_id)  # None: removed since (by retention)
        merged = merge(state, grouped[entity_id], earliest=earliest)
        if merged != state:
            updated.append(to_row(entity_id, merged))
    await traces_store.upsert(conn, table, updated)
    return [fresh[i] for i in inserted] + updated


async def store_batch(conn: Connection, received: ReceivedBatch) -> list[TraceIngested]:
    """Merge the received batch into the tables; the events announcing the traces it changed
    (none when it changed nothing)."""
    project, records = received.project_id, received.records
    own = await models_store.own(conn, project) if received.has_observations else []
    pricing = Pricing(own)
    traces = await _merge(
        conn, "traces", project, records["traces"], lambda i, s: trace_row(project, i, s)
    )
    observations = await _merge(
        conn, "observations", project, records["observations"],
        lambda i, s: observation_row(project, i, s, pricing, count_tokens),
    )  # fmt: skip
    scores = await _merge(
        conn, "scores", project, records["scores"], lambda i, s: score_row(project, i, s)
    )
    await traces_store.upsert_sessions(conn, project, traces)
    changed = {row["id"] for row in traces}
    per_observation = Counter(row["trace_id"] for row in observations)
    per_score = Counter(row["trace_id"] for row in scores if row["trace_id"])
    ingested = [
        IngestedTrace(
            trace_id=trace_id,
            trace_changed=trace_id in changed,
            observations=per_observation[trace_id],
            scores=per_score[trace_id],
        )
        for trace_id in sorted(changed | set(per_observation) | set(per_score))
    ]
    return [
        TraceIngested(project_id=project, traces=ingested[i : i + MAX_TRACES_PER_EVENT])
        for i in range(0, len(ingested), MAX_TRACES_PER_EVENT)
    ]


def register(ctx: ServiceContext) -> None:
    async def on_batch(received: ReceivedBatch) -> None:
        async with transaction(ctx.pool) as conn:
            changed = await store_batch(conn, received)
            project = received.project
            events = [new_event(data, source=SOURCE, project=project) for data in changed]
            await enqueue_many(conn, ctx.subjects, events)

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
    subscribe(
        ctx.broker, ctx.subjects, spec, on_batch, inbox_prefix=ctx.subjects.inbox_prefix(ctx.name)
    )
