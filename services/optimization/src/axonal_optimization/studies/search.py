"""The loop of an adaptive search on the bus.

``optimization.start`` (a sweep starts) records the study and suggests its first trials; each
trial's ``run.done`` records its result, tells the study, and suggests the next trials until
the budget is spent; once every trial has ended, the sweep is told it may end, with the best
trial as its outputs. Each step is one transaction that changes a state only once (a study is
inserted once, a trial ends once: a redelivered message finds it done and does nothing) with
the ``scheduler.add_trials`` command it sends (outbox, with an id derived from what it holds,
so a repeat is deduplicated by the scheduler): a replica that restarted mid-way suggests
nothing twice and loses nothing.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

import structlog

from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_events import new_event
from axonal_events.catalog.run import RunDone, RunStatus
from axonal_events.commands import AddTrials, OptimizeSweep, Trial
from axonal_optimization.context import Context
from axonal_optimization.domain import iterative
from axonal_optimization.domain.bracket_steps import BracketTrial, launches
from axonal_optimization.domain.hyperband import Hyperband
from axonal_optimization.domain.pruning import pruning
from axonal_optimization.domain.results import best_outputs, trial_result
from axonal_optimization.domain.studies import LiveStudy, Study, approximations, objective
from axonal_optimization.studies import store, tuners
from axonal_optimization.studies.memory import hold, step
from axonal_optimization.studies.readings import intermediate_values, latest_values

__all__ = ["start", "sweep_ended", "trial_done", "trial_uuid"]

log = structlog.get_logger(__name__)


def trial_uuid(sweep_uuid: str, number: int) -> str:
    """The run of trial ``number``: the same whoever suggests it."""
    return uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:trial:{sweep_uuid}:{number}").hex


def _send(ctx: Context, pending: PendingEvents, study: Study, command: AddTrials) -> None:
    key = f"{command.sweep_uuid}:{[t.index for t in command.trials]}:{command.done}"
    event_id = uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:add-trials:{key}").hex
    event = new_event(command, source=ctx.source, event_id=event_id, project=study.full_project)
    pending.add(event, subject=ctx.subjects.command("scheduler", "add_trials"))


def _outputs(live: LiveStudy, stored: list[store.StoredTrial]) -> dict[str, Any]:
    """The best complete trial, as the sweep's outputs (none when no trial completed)."""
    return best_outputs(live.metric, stored, maximize=live.study.direction.name == "MAXIMIZE")


async def _to_start(conn: Connection, live: LiveStudy, study: Study) -> list[store.NewTrial] | None:
    """The trials to start now; ``None`` once the search has no more to start."""
    if study.kind == "hyperband":
        return await _hyperband_trials(live, study, await store.trials(conn, study.sweep_uuid))
    total, running = live.counts()  # the study in memory holds what the rows hold
    if total >= live.budget.total:
        return None
    count = min(live.budget.concurrency - running, live.budget.total - total)
    if study.kind == "bayes":  # a GP's fit waits on the worker process: off the event loop
        asked = await asyncio.to_thread(live.ask, max(count, 0))
    else:  # TPE asks take milliseconds: a thread hop would cost a fifth of that
        asked = live.ask(max(count, 0))
    return [store.NewTrial(n, trial_uuid(study.sweep_uuid, n), params) for n, params in asked]


async def _hyperband_trials(
    live: LiveStudy, study: Study, stored: list[store.StoredTrial]
) -> list[store.NewTrial] | None:
    plan = Hyperband.from_search_space(study.search_space)
    ran = [
        BracketTrial(t.number, t.bracket or 0, t.rung or 0, t.config or 0, t.state, t.value,
                     t.params)
        for t in stored
    ]  # fmt: skip
    todo = launches(plan, ran, live.budget.concurrency)
    if todo is None:
        return None
    drawn = await asyncio.to_thread(live.ask, sum(1 for t in todo if t.config is None))
    resource = str(study.search_space["resource"]["name"])
    new, number = [], len(stored)
    for launch in todo:
        config = number if launch.config is None else launch.config
        params = dict(drawn.pop(0)[1] if launch.config is None else launch.params or {})
        params[resource] = launch.resource
        run = trial_uuid(study.sweep_uuid, number)
        new.append(store.NewTrial(number, run, params, launch.bracket, launch.rung, config))
        number += 1
    return new


async def _next(ctx: Context, conn: Connection, pending: PendingEvents, study: Study) -> None:
    """Start what the budget and the concurrency allow now; tell the sweep when all ended."""
    if study.kind == "iterative":  # its tuner suggests the trials
        await tuners.advance(ctx, conn, pending, study)
        return
    held = await hold(ctx, conn, study)
    new = await _to_start(conn, held.live, study)
    if new:
        await store.insert_trials(conn, study.sweep_uuid, new)
        held.running.update({t.run_uuid: t.number for t in new})
        trials = [Trial(uuid=t.run_uuid, index=t.number, params=t.params) for t in new]
        _send(ctx, pending, study, AddTrials(sweep_uuid=study.sweep_uuid, trials=trials))
        return
    if new is None and not held.running:
        stored = await store.trials(conn, study.sweep_uuid)
        outputs = _outputs(held.live, stored)
        _send(
            ctx, pending, study, AddTrials(sweep_uuid=study.sweep_uuid, done=True, outputs=outputs)
        )
        await store.end_study(conn, study.sweep_uuid, "finished", None)
        ctx.forget(study.sweep_uuid)


async def start(ctx: Context, command: OptimizeSweep) -> None:
    """Record the sweep's study and suggest its first trials (a search that cannot run fails
    the sweep with why)."""

    async def work(conn: Connection, pending: PendingEvents) -> None:
        if not await store.insert_study(conn, command):
            return  # started by an earlier delivery
        study = await store.lock_study(conn, command.sweep_uuid)
        assert study is not None
        try:
            if study.kind == "hyperband":
                Hyperband.from_search_space(study.search_space)
            if study.kind == "iterative":
                iterative.check(study.search_space)
            else:
                await hold(ctx, conn, study)
        except ValueError as exc:
            await store.end_study(conn, study.sweep_uuid, "ended", str(exc))
            _send(ctx, pending, study, AddTrials(sweep_uuid=study.sweep_uuid, failed=str(exc)))
            return
        await _next(ctx, conn, pending, study)

    await step(ctx, command.sweep_uuid, work)
    space = command.search_space
    notes = approximations(space)
    log.info("study.started", sweep=command.sweep_uuid, kind=space.get("kind"), approximated=notes)


async def _trial(ctx: Context, done: RunDone) -> tuple[Study, int, bool] | None:
    """The running study of a run, the trial's number, and whether the pruner stopped it:
    from memory, else one read."""
    held = ctx.studies.get(done.pipeline_uuid or "")
    if held is not None and done.run_uuid in held.running:
        return held.study, held.running[done.run_uuid], done.run_uuid in held.pruned
    async with ctx.pool.acquire() as conn:
        found = await store.trial_of_run(conn, done.run_uuid)
    if found is None or found[0].state != "running":
        return None
    return found[0], found[1].number, found[1].reason == "pruned"


async def trial_done(ctx: Context, done: RunDone) -> None:
    """Record a trial's result (and its intermediate values, when the study prunes), tell its
    study, and suggest the next trials."""
    found = await _trial(ctx, done)
    if found is None:
        return
    study, number, pruned = found
    metric, _ = objective(study.search_space)
    latest = {}
    if pruned or metric not in done.outputs:
        succeeded = done.status is RunStatus.SUCCEEDED  # then its metric must be there
        wait = ctx.settings.metric_wait if succeeded else 0.0
        latest = await latest_values(ctx, done.run_uuid, metric, wait=wait)
    stopped = "Pruned" if pruned else None
    state, value, reason = trial_result(done.status.value, stopped, metric, done.outputs, latest)
    watched = pruning(study.search_space).metric
    steps = {}
    if watched is not None:
        steps = (await intermediate_values(ctx, watched, [done.run_uuid])).get(done.run_uuid, {})

    async def work(conn: Connection, pending: PendingEvents) -> None:
        held = ctx.studies.get(study.sweep_uuid)
        if steps:
            await store.record_intermediate(conn, study.sweep_uuid, number, steps)
        why = "pruned" if state == "pruned" else reason
        if not await store.end_trial(conn, study.sweep_uuid, number, state, value, why):
            return  # the study ended, or this trial's end was recorded already
        if held is not None:
            held.running.pop(done.run_uuid, None)
            held.pruned.discard(done.run_uuid)
            if study.kind != "hyperband":
                held.live.report(number, steps)
                held.live.tell(number, state, value)  # one rebuilt now reads it from the rows
        await _next(ctx, conn, pending, study)

    await step(ctx, study.sweep_uuid, work)


async def sweep_ended(ctx: Context, done: RunDone) -> None:
    """A sweep run ended before its study did (stopped, failed): suggest nothing more."""
    async with transaction(ctx.pool) as conn:
        study = await store.lock_study(conn, done.run_uuid)
        if study is None or study.state != "running":
            return
        await store.end_study(conn, study.sweep_uuid, "ended", f"the sweep ended {done.status}")
    ctx.forget(done.run_uuid)
