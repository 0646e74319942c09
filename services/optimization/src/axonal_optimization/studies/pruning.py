"""Pruning running trials by the sweep's ``earlyStopping`` policy.

Every ``prune_interval`` seconds one replica (:mod:`axonal_bus.ticks`) reads the
intermediate values of the running trials of each study that prunes: one downsampled series
read per study from tracking, so nothing is added to the ingest path. It keeps the new steps
(the trial's row and the study in memory), and the trials the study's pruner selects are
stopped: ``scheduler.stop`` with the reason ``Pruned``, through the outbox, in the
transaction that notes it on the trial (once). The stopped trial's ``run.done`` then counts
it as ``pruned``, with its last value.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from functools import partial

import structlog

from axonal_bus import ticks
from axonal_bus.errors import AxonalError
from axonal_bus.outbox import PendingEvents
from axonal_db import Connection
from axonal_events import new_event
from axonal_events.commands import RunAction
from axonal_optimization.context import Context
from axonal_optimization.domain.pruning import pruning
from axonal_optimization.domain.studies import Study
from axonal_optimization.studies import store
from axonal_optimization.studies.memory import hold, step
from axonal_optimization.studies.readings import intermediate_values

__all__ = ["prune_once", "start_watching", "stop_watching", "watch"]

log = structlog.get_logger(__name__)


def _stop(ctx: Context, pending: PendingEvents, study: Study, run_uuid: str) -> None:
    stop = RunAction(verb="stop", run_uuid=run_uuid, reason="Pruned")
    event_id = uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:prune:{run_uuid}").hex
    event = new_event(stop, source=ctx.source, event_id=event_id, project=study.full_project)
    pending.add(event, subject=ctx.subjects.command("scheduler", "stop"))


async def _prune_study(ctx: Context, study: Study) -> None:
    metric = pruning(study.search_space).metric
    if metric is None:
        return
    async with ctx.pool.acquire() as conn:
        running = {t.run_uuid: t.number for t in await store.trials(conn, study.sweep_uuid)
                   if t.state == "running"}  # fmt: skip
    if not running:
        return
    values = await intermediate_values(ctx, metric, list(running))

    async def work(conn: Connection, pending: PendingEvents) -> None:
        if await store.lock_study(conn, study.sweep_uuid) is None:
            return
        held = await hold(ctx, conn, study)
        for run_uuid, steps in values.items():
            number = running[run_uuid]
            if not steps or run_uuid not in held.running:
                continue  # ended meanwhile
            await store.record_intermediate(conn, study.sweep_uuid, number, steps)
            held.live.report(number, steps)
            if held.live.should_prune(number) and await store.mark_pruned(
                conn, study.sweep_uuid, number
            ):
                held.pruned.add(run_uuid)
                _stop(ctx, pending, study, run_uuid)
                log.info("trial.pruned", sweep=study.sweep_uuid, trial=number, step=max(steps))

    await step(ctx, study.sweep_uuid, work)


async def prune_once(ctx: Context) -> None:
    """One round over the running studies that prune."""
    async with ctx.pool.acquire() as conn:
        studies = await store.running_studies(conn)
    for study in studies:
        await _prune_study(ctx, study)


async def _round(ctx: Context) -> None:
    try:
        await prune_once(ctx)
    except AxonalError as exc:  # tracking away now, say: the next round reads again
        log.warning("pruning.skipped", error=str(exc))
    except Exception:
        log.exception("pruning.failed")


async def watch(ctx: Context) -> None:
    """Prune every ``prune_interval`` seconds, in one replica at a time, until the service
    stops."""
    await ticks.every(ctx.pool, "pruning", ctx.settings.prune_interval, partial(_round, ctx))


async def start_watching(ctx: Context) -> None:
    ctx.tasks.append(asyncio.create_task(watch(ctx), name="optimization-pruning"))


async def stop_watching(ctx: Context) -> None:
    for task in ctx.tasks:
        task.cancel()
    for task in ctx.tasks:
        with contextlib.suppress(asyncio.CancelledError):
            await task
