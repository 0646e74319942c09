"""Evaluate a project's alert rules on a stored batch; each crossing is one outbox event.

Called by the metric ingestion (:mod:`axonal_tracking.metrics.ingest`) inside the transaction
that stores the batch: the rules' states and the crossings commit with the points, or none do.
"""

from __future__ import annotations

from collections import defaultdict

from axonal_bus.outbox import enqueue
from axonal_db import Connection
from axonal_events import MetricCrossed, new_event
from axonal_tracking.alerts import store
from axonal_tracking.context import Context
from axonal_tracking.domain.alerts import advance
from axonal_tracking.domain.points import Batch
from axonal_tracking.domain.runs import KnownRun

__all__ = ["evaluate"]


async def evaluate(ctx: Context, conn: Connection, run: KnownRun, batch: Batch) -> int:
    """Advance every rule watching the batch's run; returns the crossings emitted."""
    project = run.project
    rules = await store.rules_for(conn, project, list({p.name for p in batch.points}), run.tags)
    if not rules:
        return 0  # the common case: no rule watches these metrics
    watched = {rule.metric for rule in rules}
    by_metric: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for point in batch.points:
        if point.name in watched:
            by_metric[point.name].append((point.step, point.value))
    emitted = 0
    for rule in rules:
        state = await store.lock_state(conn, rule.id, batch.run_uuid)
        after, crossings = advance(rule, state, by_metric[rule.metric])
        if after != state:
            await store.save_state(conn, rule.id, batch.run_uuid, after)
        for crossing in crossings:
            data = MetricCrossed(
                run_uuid=batch.run_uuid,
                project=project,
                metric=rule.metric,
                value=crossing.value,
                step=crossing.step,
                rule_id=rule.id,
                comparison=rule.comparison,
                threshold=rule.threshold,
            )
            await enqueue(conn, ctx.subjects, new_event(data, source=ctx.source, project=project))
            emitted += 1
    return emitted
