"""Evaluate a project's alert rules on a stored batch; each crossing is one outbox event."""

from __future__ import annotations

from collections import defaultdict

from axonal_bus.outbox import enqueue
from axonal_db import Connection
from axonal_events import MetricCrossed, Subjects, new_event
from axonal_tracking import alerts_store
from axonal_tracking.domain.alerts import advance
from axonal_tracking.store import KnownRun
from axonal_tracking.wire import Batch

__all__ = ["evaluate"]

SOURCE = "/axonal/tracking"


async def evaluate(conn: Connection, subjects: Subjects, run: KnownRun, batch: Batch) -> int:
    """Advance every rule watching the batch's run; returns the crossings emitted."""
    project = run.project
    by_metric: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for point in batch.points:
        by_metric[point.name].append((point.step, point.value))
    emitted = 0
    for rule in await alerts_store.rules_for(conn, project, list(by_metric), run.tags):
        state = await alerts_store.lock_state(conn, rule.id, batch.run_uuid)
        after, crossings = advance(rule, state, by_metric[rule.metric])
        if after != state:
            await alerts_store.save_state(conn, rule.id, batch.run_uuid, after)
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
            await enqueue(conn, subjects, new_event(data, source=SOURCE, project=project))
            emitted += 1
    return emitted
