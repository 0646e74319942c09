"""Request/reply: read runs (get, list, status history, logs) and track runs from the SDK."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from axonal_bus.errors import NotFound
from axonal_db import Connection, transaction
from axonal_events import DONE_STATUSES
from axonal_events.rpcs import Scheduler
from axonal_events.runs import (
    EndRun,
    GetRun,
    ListRuns,
    LogPage,
    ReadLogs,
    RunInfo,
    RunList,
    StatusHistory,
    TrackRun,
    UpdateRun,
)
from axonal_scheduler.context import Context
from axonal_scheduler.domain.objective import objective
from axonal_scheduler.logs import store as logs_store
from axonal_scheduler.runs import store, tracked
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.store import Run

__all__ = [
    "end_run",
    "get_run",
    "list_runs",
    "logs",
    "register",
    "run_info",
    "statuses",
    "track_run",
    "update_run",
]

#: How long after a run finished its logs count as complete even if lines are missing.
_LOG_GRACE = timedelta(seconds=30)


def run_info(run: Run, children: int = 0) -> RunInfo:
    return RunInfo(
        uuid=run.uuid,
        owner=run.owner,
        project=run.project,
        name=run.name,
        kind=run.kind,
        status=run.status,
        reason=run.reason,
        message=run.message,
        queue=run.queue,
        pipeline_uuid=run.pipeline_uuid,
        original_uuid=run.original_uuid,
        attempt=run.attempt,
        is_approved=run.is_approved,
        inputs=run.inputs,
        outputs=run.outputs,
        cache_hit_of=run.cache_hit_of,
        created_at=run.created_at,
        started_at=run.started_at,
        finished_at=run.finished_at,
        children=children,
        managed=run.managed,
        description=run.description,
        tags=run.tags,
        progress=run.progress,
        agent=run.agent,
        endpoints=run.endpoints,
        op_name=run.op_name,
        upstream=run.compiled.get("upstream") if run.kind == "dag" else None,
        objective=objective(run.compiled, run.early_stopping),
        warnings=list(run.compiled.get("warnings") or []),
    )


async def _found(conn: Connection, uuid: str) -> Run:
    run = await store.get_run(conn, uuid)
    if run is None or run.deleted_at is not None:
        raise NotFound(f"run {uuid} does not exist")
    return run


def _long_finished(run: Run) -> bool:
    """Lines the bus refused stay in the agent's ``logs.txt``: readers stop waiting at last."""
    finished = run.finished_at
    return finished is not None and datetime.now(UTC) - finished > _LOG_GRACE


async def get_run(ctx: Context, request: GetRun) -> RunInfo:
    async with ctx.pool.acquire() as conn:
        run = await _found(conn, request.run_uuid)
        counts = await store.child_counts(conn, [run.uuid])
    info = run_info(run, counts.get(run.uuid, 0))
    return info.model_copy(update={"compiled": run.compiled})


async def list_runs(ctx: Context, request: ListRuns) -> RunList:
    where = store.RunFilter(
        status=request.status.value if request.status else None,
        pipeline_uuid=request.pipeline_uuid,
        kind=request.kind,
        tags=request.tags,
        name=request.name,
        created_after=request.created_after,
        created_before=request.created_before,
    )
    async with ctx.pool.acquire() as conn:
        runs, total, counts = await store.list_runs(
            conn, request.owner, request.project, where, request.limit, request.offset
        )
    return RunList(runs=[run_info(r, counts.get(r.uuid, 0)) for r in runs], total=total)


async def statuses(ctx: Context, request: GetRun) -> StatusHistory:
    async with ctx.pool.acquire() as conn:
        await _found(conn, request.run_uuid)
        changes = await store.statuses(conn, request.run_uuid)
    return StatusHistory(run_uuid=request.run_uuid, changes=changes)


async def logs(ctx: Context, request: ReadLogs) -> LogPage:
    """A page of the run's lines; ``done`` once the run is done and every line is stored."""
    async with ctx.pool.acquire() as conn:
        run = await _found(conn, request.run_uuid)
        lines = await logs_store.read_logs(conn, run.uuid, request.after, request.limit)
        done = (
            run.status in DONE_STATUSES
            and len(lines) < request.limit
            and (_long_finished(run) or await logs_store.logs_complete(conn, run.uuid))
        )
    return LogPage(run_uuid=run.uuid, lines=lines, done=done)


async def track_run(ctx: Context, request: TrackRun) -> RunInfo:
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        run = await tracked.track(engine, request)
    await ctx.publish_committed(engine.tx.events)
    return run_info(run)


async def update_run(ctx: Context, request: UpdateRun) -> RunInfo:
    async with transaction(ctx.pool) as conn:
        run = await tracked.update(conn, request)
    return run_info(run)


async def end_run(ctx: Context, request: EndRun) -> RunInfo:
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        run = await tracked.end(engine, request)
    await ctx.publish_committed(engine.tx.events)
    return run_info(run)


def register(ctx: Context) -> None:
    ctx.serve(Scheduler.get_run, get_run)
    ctx.serve(Scheduler.list_runs, list_runs)
    ctx.serve(Scheduler.statuses, statuses)
    ctx.serve(Scheduler.logs, logs)
    ctx.serve(Scheduler.track_run, track_run)
    ctx.serve(Scheduler.update_run, update_run)
    ctx.serve(Scheduler.end_run, end_run)
