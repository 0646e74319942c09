"""Request/reply: get and list runs, status histories, logs."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection
from axonal_events import DONE_STATUSES
from axonal_events.runs import (
    GetRun,
    ListRuns,
    LogPage,
    ReadLogs,
    RunInfo,
    RunList,
    StatusHistory,
)
from axonal_scheduler import store
from axonal_scheduler.store import Run

__all__ = ["register", "run_info"]

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
    )


async def _found(conn: Connection, uuid: str) -> Run:
    run = await store.get_run(conn, uuid)
    if run is None or run.deleted_at is not None:
        raise Permanent(f"not found: run {uuid}")
    return run


def _long_finished(run: Run) -> bool:
    """Lines the bus refused stay in the agent's ``logs.txt``: readers stop waiting at last."""
    finished = run.finished_at
    return finished is not None and datetime.now(UTC) - finished > _LOG_GRACE


def register(ctx: ServiceContext) -> None:
    async def get_run(request: GetRun) -> RunInfo:
        async with ctx.pool.acquire() as conn:
            run = await _found(conn, request.run_uuid)
            counts = await store.child_counts(conn, [run.uuid])
        return run_info(run, counts.get(run.uuid, 0))

    async def list_runs(request: ListRuns) -> RunList:
        async with ctx.pool.acquire() as conn:
            runs, total, counts = await store.list_runs(
                conn,
                request.owner,
                request.project,
                request.status.value if request.status else None,
                request.pipeline_uuid,
                request.limit,
                request.offset,
            )
        return RunList(runs=[run_info(r, counts.get(r.uuid, 0)) for r in runs], total=total)

    async def statuses(request: GetRun) -> StatusHistory:
        async with ctx.pool.acquire() as conn:
            await _found(conn, request.run_uuid)
            changes = await store.statuses(conn, request.run_uuid)
        return StatusHistory(run_uuid=request.run_uuid, changes=changes)

    async def logs(request: ReadLogs) -> LogPage:
        async with ctx.pool.acquire() as conn:
            run = await _found(conn, request.run_uuid)
            lines = await store.read_logs(conn, run.uuid, request.after, request.limit)
            done = (
                run.status in DONE_STATUSES
                and len(lines) < request.limit
                and (_long_finished(run) or await store.logs_complete(conn, run.uuid))
            )
        return LogPage(run_uuid=run.uuid, lines=lines, done=done)

    ctx.serve_rpc("get_run", GetRun, get_run)
    ctx.serve_rpc("list_runs", ListRuns, list_runs)
    ctx.serve_rpc("statuses", GetRun, statuses)
    ctx.serve_rpc("logs", ReadLogs, logs)
