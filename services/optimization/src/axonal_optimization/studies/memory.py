"""A study in this replica's memory, and one step of work on it.

A study's sampler keeps state between suggestions, so each step holds the study's lock in the
replica and its row in the transaction; a failure drops the study from memory, since it may
have learned what was rolled back, and the next step rebuilds it from the rows.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_optimization.context import Context, Held
from axonal_optimization.domain.studies import LiveStudy, Study
from axonal_optimization.studies import store

__all__ = ["hold", "step"]

Work = Callable[[Connection, PendingEvents], Awaitable[None]]


async def hold(ctx: Context, conn: Connection, study: Study) -> Held:
    """The study in this replica's memory, rebuilt from its rows when it is not there."""
    found = ctx.studies.get(study.sweep_uuid)
    if found is None:
        stored = await store.trials(conn, study.sweep_uuid)
        rows = [t.record() for t in stored]
        learns = study.kind != "hyperband"  # its trials re-run configurations: it only draws
        live = await asyncio.to_thread(
            LiveStudy, study.search_space, rows, learns=learns, compute=ctx.compute_gp
        )
        running = {t.run_uuid: t.number for t in stored if t.state == "running"}
        pruned = {t.run_uuid for t in stored if t.state == "running" and t.reason == "pruned"}
        found = ctx.studies[study.sweep_uuid] = Held(study, live, running, pruned)
    return found


async def step(ctx: Context, sweep_uuid: str, work: Work) -> None:
    """Run ``work(conn, pending)`` in a transaction holding the study; publish what it sent.
    A failure drops the in-memory study, which may have learned what was rolled back."""
    pending = PendingEvents(ctx.subjects)
    async with ctx.study_lock(sweep_uuid):
        try:
            async with transaction(ctx.pool) as conn:
                await work(conn, pending)
                await pending.flush(conn, direct=True)
        except BaseException:
            ctx.forget(sweep_uuid)
            raise
    await ctx.publish_committed(pending)
