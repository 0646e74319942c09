"""What a trace batch does: merge its records into the stored rows, priced and counted.

Records of one id are merged in event-time order with what is stored (see
:mod:`axonal_tracking.domain.trace_merge`); rows whose state did not change are not written,
so a redelivered batch changes nothing. :func:`store_batch` returns the ``trace.ingested``
events listing every trace whose trace, observations or scores changed, for the caller to
enqueue in the same transaction. Two transactions merging at once (two batches of a replica,
or replicas) write ids in one order and lock the ids they merge.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from axonal_db import Connection
from axonal_events.catalog.traces import MAX_TRACES_PER_EVENT, IngestedTrace, TraceIngested
from axonal_traces.pricing import Pricing
from axonal_tracking.domain.trace_merge import Update, merge
from axonal_tracking.domain.trace_rows import observation_row, score_row, trace_row
from axonal_tracking.prices import store as prices_store
from axonal_tracking.traces import store
from axonal_tracking.traces.tokens import count_tokens
from axonal_tracking.traces.wire import ReceivedBatch, ReceivedRecord

__all__ = ["store_batch"]

_EARLIEST = {"traces": frozenset({"timestamp"})}


def _by_id(records: Sequence[ReceivedRecord]) -> dict[str, list[Update]]:
    grouped: dict[str, list[Update]] = defaultdict(list)
    for entity_id, at, fields in records:
        grouped[entity_id].append((at, fields))
    return grouped


async def _merge(
    conn: Connection,
    table: store.Table,
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
    inserted = await store.insert_new(conn, table, list(fresh.values()))
    known = [i for i in grouped if i not in inserted]
    if not known:
        return list(fresh.values())
    await store.lock_ids(conn, project_id, (f"{table}:{i}" for i in known))
    stored = await store.states(conn, table, project_id, known)
    updated = []
    for entity_id in known:
        state = stored.get(entity_id)  # None: removed since (by retention)
        merged = merge(state, grouped[entity_id], earliest=earliest)
        if merged != state:
            updated.append(to_row(entity_id, merged))
    await store.upsert(conn, table, updated)
    return [fresh[i] for i in inserted] + updated


async def store_batch(conn: Connection, received: ReceivedBatch) -> list[TraceIngested]:
    """Merge the received batch into the tables; the events announcing the traces it changed
    (none when it changed nothing)."""
    project, records = received.project_id, received.records
    own = await prices_store.own(conn, project) if received.has_observations else []
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
    await store.upsert_sessions(conn, project, traces)
    changed = {row["id"] for row in traces}
    per_observation = Counter(row["trace_id"] for row in observations)
    per_experiment = Counter(row["trace_id"] for row in observations if row.get("experiment"))
    per_score = Counter(row["trace_id"] for row in scores if row["trace_id"])
    ingested = [
        IngestedTrace(
            trace_id=trace_id,
            trace_changed=trace_id in changed,
            observations=per_observation[trace_id],
            scores=per_score[trace_id],
            experiment_observations=per_experiment[trace_id],
        )
        for trace_id in sorted(changed | set(per_observation) | set(per_score))
    ]
    return [
        TraceIngested(project_id=project, traces=ingested[i : i + MAX_TRACES_PER_EVENT])
        for i in range(0, len(ingested), MAX_TRACES_PER_EVENT)
    ]
