"""Runs tracked from the SDK (non-managed): create, update and end them over RPC.

Each change runs in one transaction through the engine, so status changes write the run's
history and emit the usual run events through the outbox. Every call is idempotent: creating
an existing uuid returns that run, merges and tag additions give the same result twice, and
ending a done run returns it as it is.
"""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import DONE_STATUSES, RunStatus
from axonal_events.runs import EndRun, RunInfo, TrackRun, UpdateRun
from axonal_scheduler import store
from axonal_scheduler.domain.tracked import ManagedRunError, check_can_end, merged_tags
from axonal_scheduler.engine import Engine
from axonal_scheduler.lifecycle import Tx
from axonal_scheduler.rpc import run_info
from axonal_scheduler.settings import SchedulerSettings
from axonal_scheduler.store import Run

__all__ = ["register"]


def register(ctx: ServiceContext, settings: SchedulerSettings) -> None:
    source = f"/axonal/{ctx.name}"

    async def track(request: TrackRun) -> RunInfo:
        async with transaction(ctx.pool) as conn:
            found = await store.get_run(conn, request.run_uuid)
            if found is not None:
                return _same_project(found, request)
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
            engine = Engine(Tx(conn, ctx.subjects, source), settings)
            await engine.create(run)
            await engine.set(run, RunStatus.RUNNING, "Tracked", "tracked from the SDK")
        return run_info(run)

    async def update(request: UpdateRun) -> RunInfo:
        async with transaction(ctx.pool) as conn:
            run = await _locked(conn, request.run_uuid)
            run.inputs = {**run.inputs, **request.inputs}
            run.outputs = {**run.outputs, **request.outputs}
            run.tags = merged_tags(run.tags, request.tags)
            if request.progress is not None:
                run.progress = request.progress
            await store.update_run(conn, run)
        return run_info(run)

    async def end(request: EndRun) -> RunInfo:
        async with transaction(ctx.pool) as conn:
            run = await _locked(conn, request.run_uuid)
            try:
                check_can_end(run.uuid, managed=run.managed)
            except ManagedRunError as exc:
                raise Permanent(str(exc)) from None
            if run.status not in DONE_STATUSES:
                engine = Engine(Tx(conn, ctx.subjects, source), settings)
                status = RunStatus(request.status)
                await engine.set(run, status, "Ended", request.message, cascade=False)
        return run_info(run)

    ctx.serve_rpc("track_run", TrackRun, track)
    ctx.serve_rpc("update_run", UpdateRun, update)
    ctx.serve_rpc("end_run", EndRun, end)


def _same_project(run: Run, request: TrackRun) -> RunInfo:
    """The run that exists already under the requested uuid (a retried or repeated create)."""
    if run.deleted_at is not None:
        raise Permanent(f"conflict: run {run.uuid} was deleted; create it under a new uuid")
    if (run.owner, run.project) != (request.owner, request.project):
        raise Permanent(
            f"conflict: run {run.uuid} already exists in another project ({run.full_project})"
        )
    return run_info(run)


async def _locked(conn: Connection, uuid: str) -> Run:
    run = await store.lock_run(conn, uuid)
    if run is None or run.deleted_at is not None:
        raise Permanent(f"not found: run {uuid}")
    return run
