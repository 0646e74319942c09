"""Runs tracked from the SDK (non-managed): create, update and end them.

Each change runs in the caller's transaction through the engine, so status changes write the
run's history and emit the usual run events through the outbox. Every call is idempotent:
creating an existing uuid returns that run, merges and tag additions give the same result
twice, and ending a done run returns it as it is.
"""

from __future__ import annotations

from axonal_bus.errors import Conflict, NotFound
from axonal_db import Connection
from axonal_events import DONE_STATUSES, RunStatus
from axonal_events.runs import EndRun, TrackRun, UpdateRun
from axonal_scheduler.domain.tracked import ManagedRunError, check_can_end, merged_tags
from axonal_scheduler.runs import store
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.store import Run

__all__ = ["end", "track", "update"]

_DELETED = "run {uuid} was deleted; create it under a new uuid"


async def track(engine: Engine, request: TrackRun) -> Run:
    """The run ``request`` names, created ``running`` unless it exists already."""
    found = await store.get_run(engine.conn, request.run_uuid)
    if found is not None:
        _check_same_project(found, request)
        return found
    if await store.was_deleted(engine.conn, request.run_uuid):
        raise Conflict(_DELETED.format(uuid=request.run_uuid))
    run = Run(
        uuid=request.run_uuid,
        owner=request.owner,
        project=request.project,
        kind="job",
        status=RunStatus.CREATED,
        compiled={},
        name=request.name,
        managed=False,
        description=request.description,
        tags=merged_tags([], request.tags),
        inputs=dict(request.inputs),
    )
    await engine.create(run)
    await engine.set(run, RunStatus.RUNNING, "Tracked", "tracked from the SDK")
    return run


async def update(conn: Connection, request: UpdateRun) -> Run:
    """Merge inputs, outputs and tags into the run; set its progress."""
    run = await _locked(conn, request.run_uuid)
    run.inputs = {**run.inputs, **request.inputs}
    run.outputs = {**run.outputs, **request.outputs}
    run.tags = merged_tags(run.tags, request.tags)
    if request.progress is not None:
        run.progress = request.progress
    await store.update_run(conn, run)
    return run


async def end(engine: Engine, request: EndRun) -> Run:
    """End a tracked run with the requested status (a done run stays as it is)."""
    run = await _locked(engine.conn, request.run_uuid)
    try:
        check_can_end(run.uuid, managed=run.managed)
    except ManagedRunError as exc:
        raise Conflict(str(exc)) from None
    if run.status not in DONE_STATUSES:
        status = RunStatus(request.status)
        await engine.set(run, status, "Ended", request.message, cascade=False)
    return run


def _check_same_project(run: Run, request: TrackRun) -> None:
    """The run that exists already under the requested uuid (a retried or repeated create)
    must be the one requested."""
    if run.deleted_at is not None:
        raise Conflict(_DELETED.format(uuid=run.uuid))
    if (run.owner, run.project) != (request.owner, request.project):
        raise Conflict(f"run {run.uuid} already exists in another project ({run.full_project})")


async def _locked(conn: Connection, uuid: str) -> Run:
    run = await store.lock_run(conn, uuid)
    if run is None or run.deleted_at is not None:
        raise NotFound(f"run {uuid} does not exist")
    return run
