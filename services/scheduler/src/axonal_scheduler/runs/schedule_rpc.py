"""Request/reply: list a project's schedules, pause or resume one, backfill past slots."""

from __future__ import annotations

from typing import Any

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection, transaction
from axonal_events.rpcs import Scheduler
from axonal_events.schedules import (
    Backfill,
    BackfillResult,
    ListSchedules,
    ScheduleAction,
    ScheduleInfo,
    ScheduleList,
    ScheduleVerb,
)
from axonal_scheduler.context import Context
from axonal_scheduler.runs import schedule_store, schedules, store
from axonal_scheduler.runs.engine import Engine

__all__ = ["act_on_schedule", "backfill", "list_schedules", "register"]


def _info(project: str, row: dict[str, Any]) -> ScheduleInfo:
    return ScheduleInfo(
        run_uuid=row["run_uuid"], project=project, name=row["name"], status=row["status"],
        kind=str(row["spec"].get("kind")), spec=row["spec"], next_fire_at=row["next_fire_at"],
        fired=row["fired"], paused=row["paused"], waiting_on=row["waiting_on"],
        last_run_uuid=row["last_run_uuid"],
    )  # fmt: skip


async def _schedules(conn: Connection, project: str) -> dict[str, ScheduleInfo]:
    owner, name = project.split("/", 1)
    return {
        r["run_uuid"]: _info(project, r) for r in await schedule_store.list_for(conn, owner, name)
    }


async def _one(conn: Connection, project: str, run_uuid: str) -> ScheduleInfo:
    found = (await _schedules(conn, project)).get(run_uuid)
    if found is None:
        raise NotFound(f"{project} has no schedule {run_uuid}")
    return found


async def list_schedules(ctx: Context, request: ListSchedules) -> ScheduleList:
    async with ctx.pool.acquire() as conn:
        return ScheduleList(schedules=list((await _schedules(conn, request.project)).values()))


async def act_on_schedule(ctx: Context, request: ScheduleAction) -> ScheduleInfo:
    async with transaction(ctx.pool) as conn:
        await _one(conn, request.project, request.run_uuid)
        await schedule_store.set_paused(conn, request.run_uuid, request.verb is ScheduleVerb.PAUSE)
        return await _one(conn, request.project, request.run_uuid)


async def backfill(ctx: Context, request: Backfill) -> BackfillResult:
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        await _one(conn, request.project, request.run_uuid)
        run = await store.lock_run(conn, request.run_uuid)
        assert run is not None  # the schedule's row references it
        try:
            uuids, created = await schedules.backfill(engine, run, request.start, request.end)
        except ValueError as exc:
            raise Invalid(str(exc)) from None
    await ctx.publish_committed(engine.tx.events)
    await schedules.admit(ctx, created)
    return BackfillResult(run_uuids=uuids, created=len(created))


def register(ctx: Context) -> None:
    ctx.serve(Scheduler.list_schedules, list_schedules)
    ctx.serve(Scheduler.act_on_schedule, act_on_schedule)
    ctx.serve(Scheduler.backfill, backfill)
