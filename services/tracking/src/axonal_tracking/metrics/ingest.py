"""What a metric batch does: find its run, store its points, evaluate the alert rules.

One transaction per batch: the points, the rules' states and the crossings (outbox events)
commit together, so a batch redelivered after a crash changes nothing that was committed.
"""

from __future__ import annotations

from axonal_bus.errors import Retryable
from axonal_db import Connection
from axonal_tracking.alerts.evaluation import evaluate
from axonal_tracking.context import Context
from axonal_tracking.domain.points import Batch
from axonal_tracking.metrics import store

__all__ = ["store_batch"]


async def store_batch(ctx: Context, conn: Connection, batch: Batch) -> None:
    """Store ``batch`` and evaluate it (inside a transaction); :class:`Retryable` while its
    run has not been heard of (its ``run.created`` may still be on its way)."""
    run = ctx.known_runs.get(batch.run_uuid)
    if run is None:
        run = await store.known_run(conn, batch.run_uuid)
        if run is None:
            raise Retryable(f"unknown run {batch.run_uuid}")
        ctx.known_runs.remember(run)
    await store.insert_points(conn, batch)
    await evaluate(ctx, conn, run, batch)
