"""Run actions: stop, approve, restart, resume, skip, delete; each one idempotent."""

from __future__ import annotations

import uuid as uuidlib

from axonal_events import DONE_STATUSES, RunStatus
from axonal_events.catalog import RunDeleted
from axonal_events.commands import RunAction
from axonal_scheduler.domain.statuses import NOT_STARTED
from axonal_scheduler.runs import pipelines, store
from axonal_scheduler.runs.engine import PIPELINE_KINDS, Engine
from axonal_scheduler.runs.store import Run

__all__ = ["act"]

S = RunStatus


async def act(engine: Engine, action: RunAction) -> None:
    run = await store.lock_run(engine.conn, action.run_uuid)
    if run is None or run.deleted_at is not None:
        return
    if action.verb == "stop":
        await engine.stop(run, action.reason or "Stopped")
    elif action.verb == "approve":
        await _approve(engine, run)
    elif action.verb == "restart":
        await _restart(engine, run, action.new_run_uuid or uuidlib.uuid4().hex)
    elif action.verb == "resume":
        await _resume(engine, run)
    elif action.verb == "skip":
        if run.status in NOT_STARTED and run.status is not S.RETRYING:
            await engine.set(run, S.SKIPPED, "Skipped", "skipped by a user")
    elif action.verb == "delete":
        await engine.stop(run)
        await store.mark_deleted(engine.conn, run.uuid)
        deleted = RunDeleted(run_uuid=run.uuid, owner=run.owner, project=run.project)
        engine.tx.emit(deleted, project=run.full_project)


async def _approve(engine: Engine, run: Run) -> None:
    if run.is_approved:
        return
    run.is_approved = True
    await store.update_run(engine.conn, run)
    if run.status is not S.CREATED:
        return
    if run.pipeline_uuid:
        await pipelines.advance(engine, run.pipeline_uuid)
    else:
        await engine.proceed(run)


async def _restart(engine: Engine, run: Run, new_uuid: str) -> None:
    if await store.get_run(engine.conn, new_uuid) is not None:
        return
    copy = Run(
        uuid=new_uuid,
        owner=run.owner,
        project=run.project,
        kind=run.kind,
        status=S.CREATED,
        compiled=run.compiled,
        name=run.name,
        queue=run.queue,
        priority=run.priority,
        content_hash=run.content_hash,
        original_uuid=run.uuid,
        inputs=run.inputs,
        early_stopping=run.early_stopping,
        tags=run.tags,
    )
    await engine.create(copy)
    if not run.compiled:  # a run that never compiled restarts as it ended
        await engine.set(copy, S.FAILED, run.reason, run.message)
        return
    await engine.proceed(copy)


async def _resume(engine: Engine, run: Run) -> None:
    """A stopped or failed run runs again as the same run, with a new attempt; a pipeline
    keeps its succeeded children and re-runs the others (new attempts)."""
    if run.status not in DONE_STATUSES - {S.SUCCEEDED} or not run.compiled:
        return
    if not await engine.set(run, S.RESUMING, "Resumed", None, force=True):
        return
    run.attempt += 1
    if run.kind in PIPELINE_KINDS:
        await _reopen_children(engine, run)
    await engine.proceed(run)


async def _reopen_children(engine: Engine, parent: Run) -> None:
    """Every done child that did not succeed waits again (``resuming``, next attempt)."""
    for kid in await store.children(engine.conn, parent.uuid):
        if kid.status not in DONE_STATUSES or kid.status is S.SUCCEEDED:
            continue
        kid.attempt += 1
        reopened = await engine.set(kid, S.RESUMING, "Resumed", None, force=True, cascade=False)
        if reopened and kid.kind in PIPELINE_KINDS:
            await _reopen_children(engine, kid)
