"""What a metric batch does: find its run, store its points (reopening the summaries they
fall into), evaluate the alert rules.

One transaction per batch: the points, the rules' states and the crossings (outbox events)
commit together, so a batch redelivered after a crash changes nothing that was committed. The
points go in with one COPY; a batch that repeats stored points (a redelivery, a re-send) fails
it on the primary key, and is then stored again from the start in a new transaction, row by
row, skipping the points already there. (No savepoint around the COPY: two round trips a batch
saved, for the rare batch that pays a second transaction.)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import asyncpg

from axonal_bus.errors import Retryable
from axonal_db import Connection, transaction
from axonal_tracking.alerts.evaluation import evaluate
from axonal_tracking.context import Context
from axonal_tracking.domain.points import Batch
from axonal_tracking.metrics import rollups, store

__all__ = ["store_batch"]

#: Stores a batch's points; how many were new, or ``None`` when all of them were.
Insert = Callable[[Connection, Batch], Awaitable[int | None]]


async def store_batch(ctx: Context, batch: Batch) -> None:
    """Store ``batch`` and evaluate it, in one transaction; :class:`Retryable` while its run
    has not been heard of (its ``run.created`` may still be on its way)."""
    try:
        async with transaction(ctx.pool) as conn:
            await _store(ctx, conn, batch, store.copy_points)
    except asyncpg.UniqueViolationError:
        async with transaction(ctx.pool) as conn:
            await _store(ctx, conn, batch, store.insert_new_points)


async def _store(ctx: Context, conn: Connection, batch: Batch, insert: Insert) -> None:
    run = ctx.known_runs.get(batch.run_uuid)
    if run is None:
        run = await store.known_run(conn, batch.run_uuid)
        if run is None:
            raise Retryable(f"unknown run {batch.run_uuid}")
        ctx.known_runs.remember(run)
    if await insert(conn, batch) != 0:  # a repeated batch adds nothing to reopen
        await rollups.reopen(conn, batch)
    await evaluate(ctx, conn, run, batch)
