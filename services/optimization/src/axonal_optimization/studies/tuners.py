"""The loop of an iterative search: the user's tuner component suggests each iteration's trials.

Once no trial of the search runs (at start, or when the last trial of an iteration ended),
:func:`advance` submits the next tuner run (``scheduler.submit`` through the outbox, its run
uuid derived from the sweep and the iteration, so it is made once) with the search space and
the trials finished so far; after ``maxIterations`` tuner runs, or one that suggested nothing,
it ends the search with the best trial. A tuner run's ``run.done`` (:func:`tuner_done`) turns
its suggestions, each checked against the search space, into trials (``scheduler.add_trials``;
the sweep's ``concurrency`` bounds how many run at once), or fails the sweep with why. As in
the rest of the loop (:mod:`~axonal_optimization.studies.search`), each step is one
transaction holding the study, and changes each state once.
"""

from __future__ import annotations

import uuid

import structlog

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import RemoteError
from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_events import new_event
from axonal_events.catalog.run import RunDone, RunStatus
from axonal_events.commands import AddTrials, RunAction, SubmitRun, Trial
from axonal_events.rpcs import Scheduler
from axonal_events.runs import GetRun
from axonal_optimization.context import Context
from axonal_optimization.domain import iterative
from axonal_optimization.domain.results import best_outputs
from axonal_optimization.domain.studies import Study, objective
from axonal_optimization.studies import store
from axonal_optimization.studies.memory import step

__all__ = ["advance", "sweep_ended", "tuner_done"]

log = structlog.get_logger(__name__)


def _add_trials(ctx: Context, pending: PendingEvents, study: Study, command: AddTrials) -> None:
    """Send ``command`` with an id derived from what it holds, as the rest of the loop does
    (the scheduler's inbox drops a repeat)."""
    key = f"{command.sweep_uuid}:{[t.index for t in command.trials]}:{command.done}"
    event_id = uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:add-trials:{key}").hex
    event = new_event(command, source=ctx.source, event_id=event_id, project=study.full_project)
    pending.add(event, subject=ctx.subjects.command("scheduler", "add_trials"))


async def _submit(
    ctx: Context,
    conn: Connection,
    pending: PendingEvents,
    study: Study,
    iteration: int,
    stored: list[store.StoredTrial],
) -> None:
    """Submit tuner run ``iteration`` with the trials finished so far, and record it."""
    run_uuid = iterative.tuner_uuid(study.sweep_uuid, iteration)
    trials = iterative.finished([t.record() for t in stored])
    command = SubmitRun(
        run_uuid=run_uuid,
        owner=study.owner,
        project=study.project,
        files=[iterative.operation(study.search_space, iteration, trials)],
        queue=study.search_space["tuner"].get("queue"),
        name=iterative.tuner_name(study.name, study.sweep_uuid, iteration),
    )
    event = new_event(command, source=ctx.source, event_id=run_uuid, project=study.full_project)
    pending.add(event, subject=ctx.subjects.command("scheduler", "submit"))
    await store.insert_tuner_run(conn, study.sweep_uuid, iteration, run_uuid)
    log.info("tuner.submitted", sweep=study.sweep_uuid, iteration=iteration, run=run_uuid)


async def advance(ctx: Context, conn: Connection, pending: PendingEvents, study: Study) -> None:
    """Inside the study's step: once no trial runs, the next tuner run, or the end of the
    search with the best trial as the sweep's outputs."""
    stored = await store.trials(conn, study.sweep_uuid)
    if any(t.state == "running" for t in stored):
        return
    ran = await store.tuner_runs(conn, study.sweep_uuid)
    if ran and ran[-1].state == "running":
        return
    exhausted = bool(ran) and ran[-1].suggested == 0
    if not exhausted and len(ran) < iterative.max_iterations(study.search_space):
        await _submit(ctx, conn, pending, study, len(ran), stored)
        return
    metric, direction = objective(study.search_space)
    outputs = best_outputs(metric, stored, maximize=direction == "maximize")
    done = AddTrials(sweep_uuid=study.sweep_uuid, done=True, outputs=outputs)
    _add_trials(ctx, pending, study, done)
    await store.end_study(conn, study.sweep_uuid, "finished", None)


async def _why_not(ctx: Context, done: RunDone) -> str:
    """The run's own reason for ending as it did (a compilation error, say), if it gives one."""
    try:
        info = await rpc.call(
            core(ctx.broker), ctx.subjects, Scheduler.get_run, GetRun(run_uuid=done.run_uuid)
        )
    except RemoteError:
        return ""
    return f": {info.message}" if info.message else (f": {info.reason}" if info.reason else "")


async def _trials_from(
    ctx: Context,
    conn: Connection,
    pending: PendingEvents,
    study: Study,
    suggested: list[dict[str, object]],
) -> None:
    """Record the suggested trials, numbered after those before, and send them."""
    first = len(await store.trials(conn, study.sweep_uuid))
    numbers = range(first, first + len(suggested))
    new = [
        store.NewTrial(n, iterative.trial_uuid(study.sweep_uuid, n), dict(params))
        for n, params in zip(numbers, suggested, strict=True)
    ]
    await store.insert_trials(conn, study.sweep_uuid, new)
    trials = [Trial(uuid=t.run_uuid, index=t.number, params=t.params) for t in new]
    _add_trials(ctx, pending, study, AddTrials(sweep_uuid=study.sweep_uuid, trials=trials))


async def tuner_done(ctx: Context, done: RunDone) -> None:
    """A tuner run ended: its suggestions become the next trials (none: the search ends), or
    the sweep fails with why (the run did not succeed, or suggested what cannot run)."""
    async with ctx.pool.acquire() as conn:
        run = await store.tuner_of_run(conn, done.run_uuid)
    if run is None or run.state != "running":
        return
    why = "" if done.status is RunStatus.SUCCEEDED else await _why_not(ctx, done)

    async def work(conn: Connection, pending: PendingEvents) -> None:
        study = await store.lock_study(conn, run.sweep_uuid)
        if study is not None and study.state == "running":
            await _tuner_ended(ctx, conn, pending, study, run, done, why)

    await step(ctx, run.sweep_uuid, work)


async def _tuner_ended(
    ctx: Context,
    conn: Connection,
    pending: PendingEvents,
    study: Study,
    run: store.TunerRun,
    done: RunDone,
    why: str,
) -> None:
    """Inside the study's step: record the tuner run's end once, and act on it."""
    problem, suggested = None, []
    if done.status is not RunStatus.SUCCEEDED:
        problem = f"ended {done.status.value}{why}"
    else:
        try:
            suggested = iterative.suggestions(done.outputs, study.search_space.get("params") or {})
        except ValueError as exc:
            problem = str(exc)
    if problem is not None:
        name = done.name or run.run_uuid
        reason = f"tuner run {name} ({run.run_uuid}): {problem} (`axonal ops logs {run.run_uuid}`)"
        if await store.end_tuner_run(conn, run, "failed", None, reason):
            await store.end_study(conn, study.sweep_uuid, "ended", reason)
            _add_trials(ctx, pending, study, AddTrials(sweep_uuid=study.sweep_uuid, failed=reason))
        return
    if not await store.end_tuner_run(conn, run, "succeeded", len(suggested), None):
        return  # recorded by an earlier delivery
    if suggested:
        await _trials_from(ctx, conn, pending, study, suggested)
    else:
        await advance(ctx, conn, pending, study)


async def sweep_ended(ctx: Context, done: RunDone) -> None:
    """A sweep ended (stopped, failed): stop its tuner run if one is running."""
    async with ctx.pool.acquire() as conn:
        running = [r for r in await store.tuner_runs(conn, done.run_uuid) if r.state == "running"]
    if not running:
        return
    pending = PendingEvents(ctx.subjects)
    for run in running:
        stop = RunAction(verb="stop", run_uuid=run.run_uuid)
        event_id = uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:tuner-stop:{run.run_uuid}").hex
        event = new_event(stop, source=ctx.source, event_id=event_id, project=done.project)
        pending.add(event, subject=ctx.subjects.command("scheduler", "stop"))
    async with transaction(ctx.pool) as conn:
        await pending.flush(conn, direct=True)
    await ctx.publish_committed(pending)
