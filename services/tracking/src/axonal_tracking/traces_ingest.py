"""Consumer of ``ingest.traces.<project>``: merge each batch's records into stored rows.

A batch that is not a valid :class:`TraceBatch` is dead-lettered at once with the reason.
Records of one id are merged in event-time order with what is stored (see
:mod:`axonal_tracking.domain.trace_merge`); rows whose state did not change are not written,
so a redelivered batch changes nothing. One ``trace.ingested`` per trace whose trace,
observations or scores changed leaves through the outbox, in the same transaction.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.errors import Permanent
from axonal_bus.outbox import enqueue_many
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import StreamKind, new_event
from axonal_events.catalog.traces import TraceIngested
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord
from axonal_traces.pricing import Pricing
from axonal_traces.values import error_reason
from axonal_tracking import models_store, traces_store
from axonal_tracking.domain.trace_merge import Update, merge
from axonal_tracking.domain.trace_rows import observation_row, score_row, trace_row
from axonal_tracking.tokens import count_tokens

__all__ = ["ReceivedBatch", "decode_trace_batch", "register", "store_batch"]

SOURCE = "/axonal/tracking"
_EARLIEST = {"traces": frozenset({"timestamp"})}
_RECORD_KEYS = frozenset({"id", "event_time"})  # what a record is, not what it sets
Record = TraceRecord | ObservationRecord | ScoreRecord


@dataclass(frozen=True, slots=True)
class ReceivedBatch:
    """A valid batch, and its records as the JSON objects they arrived as: their fields are
    what merges (as JSON values), without dumping the validated records again."""

    batch: TraceBatch
    json: dict[str, Any]

    def records(self, kind: str) -> list[tuple[Record, dict[str, Any]]]:
        validated: list[Record] = getattr(self.batch, kind)
        return list(zip(validated, self.json.get(kind) or [], strict=True))


def decode_trace_batch(raw: bytes) -> ReceivedBatch:
    """A valid batch; :class:`Permanent` naming the first bad field otherwise."""
    try:
        batch = TraceBatch.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a trace batch: {error_reason(exc)}") from None
    return ReceivedBatch(batch, msgspec.json.decode(raw))


def _updates(records: Sequence[tuple[Record, dict[str, Any]]]) -> dict[str, list[Update]]:
    grouped: dict[str, list[Update]] = defaultdict(list)
    for record, sent in records:
        at = int(record.event_time.timestamp() * 1_000_000)
        fields = {k: v for k, v in sent.items() if v is not None and k not in _RECORD_KEYS}
        grouped[record.id].append((at, fields))
    return grouped


async def _merge(
    conn: Connection,
    table: traces_store.Table,
    project_id: str,
    records: Sequence[tuple[Record, dict[str, Any]]],
    to_row: Callable[[str, dict[str, Any]], dict[str, Any]],
) -> list[dict[str, Any]]:
    """Merge ``records`` into ``table``; the rows that changed."""
    grouped = _updates(records)
    if not grouped:
        return []
    await traces_store.lock_ids(conn, project_id, (f"{table}:{i}" for i in grouped))
    stored = await traces_store.states(conn, table, project_id, list(grouped))
    changed = []
    for entity_id, updates in grouped.items():
        state = merge(stored.get(entity_id), updates, earliest=_EARLIEST.get(table, frozenset()))
        if state != stored.get(entity_id):
            changed.append(to_row(entity_id, state))
    await traces_store.upsert(conn, table, changed)
    return changed


async def store_batch(conn: Connection, received: ReceivedBatch) -> list[TraceIngested]:
    """Merge the received batch into the tables; one event per trace it changed."""
    batch = received.batch
    project = batch.project_id
    pricing = Pricing(await models_store.own(conn, project)) if batch.observations else Pricing()
    traces = await _merge(
        conn, "traces", project, received.records("traces"), lambda i, s: trace_row(project, i, s)
    )
    observations = await _merge(
        conn, "observations", project, received.records("observations"),
        lambda i, s: observation_row(project, i, s, pricing, count_tokens),
    )  # fmt: skip
    scores = await _merge(
        conn, "scores", project, received.records("scores"), lambda i, s: score_row(project, i, s)
    )
    await traces_store.upsert_sessions(conn, project, traces)
    changed = {row["id"] for row in traces}
    per_observation = Counter(row["trace_id"] for row in observations)
    per_score = Counter(row["trace_id"] for row in scores if row["trace_id"])
    return [
        TraceIngested(
            project_id=project,
            trace_id=trace_id,
            trace_changed=trace_id in changed,
            observations=per_observation[trace_id],
            scores=per_score[trace_id],
        )
        for trace_id in sorted(changed | set(per_observation) | set(per_score))
    ]


def register(ctx: ServiceContext) -> None:
    async def on_batch(received: ReceivedBatch) -> None:
        async with transaction(ctx.pool) as conn:
            changed = await store_batch(conn, received)
            project = received.batch.project
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
    )
    subscribe(
        ctx.broker, ctx.subjects, spec, on_batch, inbox_prefix=ctx.subjects.inbox_prefix(ctx.name)
    )
