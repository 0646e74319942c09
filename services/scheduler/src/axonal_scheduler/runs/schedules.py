"""The schedules' clock: fires each due slot once, across restarts and replicas.

The next slot of every schedule lives in ``schedules``. Each replica's clock sleeps until the
earliest one (woken at once by a NOTIFY when a schedule starts, resumes or is released), then
claims each due schedule in a transaction: its run locked, then its row ``FOR UPDATE SKIP
LOCKED``, the slot checked again. The runs it creates have uuids derived from the schedule and
the slot, so a slot is one run whoever fires it; the row moves to the next slot in the same
transaction. A replica that dies mid-way leaves the row where it was, and another fires it.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime, timedelta

import structlog

from axonal_bus.aio import cancel_and_wait, wait_event
from axonal_db import Connection, transaction
from axonal_events import RunStatus
from axonal_scheduler.context import Context
from axonal_scheduler.domain.schedules import Timetable
from axonal_scheduler.runs import pipelines, schedule_store, store
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.schedule_store import ScheduleRow
from axonal_scheduler.runs.store import Run

__all__ = ["admit", "backfill", "fire_due", "start_clock"]

log = structlog.get_logger(__name__)
S = RunStatus
_BATCH = 25  # schedules claimed per pass
_RETRY = 1.0  # seconds before a clock that failed (PostgreSQL away) tries again


async def fire_due(ctx: Context, healthy_since: datetime) -> int:
    """Fire the slots that have come, in one transaction; how many schedules fired.
    ``healthy_since``: when this clock last started or reached the database again (a slot
    before it, and older than the grace, came while the platform was down: it was missed).
    The runs created are admitted by their queues in a second transaction, which takes the
    queues' locks without holding the schedules' (a run ending takes them in that order)."""
    async with ctx.pool.acquire() as reader:
        due = await schedule_store.due(reader, _BATCH)
    if not due:
        return 0
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        runs = {run.uuid: run for run in await store.lock_runs(conn, due)}
        now = datetime.now(UTC)
        missed_before = min(now - timedelta(seconds=ctx.settings.schedule_grace), healthy_since)
        fired: list[Run] = []
        for row in await schedule_store.lock(conn, due):
            if row.paused or row.waiting_on or not _due(row, now):
                continue  # another replica fired it, or it changed meanwhile
            run = runs.get(row.run_uuid)
            if run is None or run.status is not S.RUNNING:
                await schedule_store.end(conn, row.run_uuid)
                continue
            fired += await _fire(engine, run, row, now, missed_before)
    await ctx.publish_committed(engine.tx.events)
    await admit(ctx, fired)
    return len(due)


async def admit(ctx: Context, created: list[Run]) -> None:
    """Take the runs a schedule created on: a queued one is admitted by its queue, any other
    proceeds (a pipeline starts); in a transaction that holds no schedule, so it takes the
    queues' locks in the order a run's end does."""
    if not created:
        return
    async with transaction(ctx.pool) as conn, Engine.within(conn, ctx) as engine:
        for run in created:
            fresh = await store.lock_run(conn, run.uuid) if run.status is S.CREATED else None
            if fresh is not None and fresh.status is S.CREATED:  # not stopped meanwhile
                await engine.proceed(fresh)
        for queue in sorted({run.queue for run in created if run.status is S.QUEUED}):
            await engine.admit(queue)
    await ctx.publish_committed(engine.tx.events)


def _due(row: ScheduleRow, now: datetime) -> bool:
    return row.next_fire_at is not None and row.next_fire_at <= now


async def _fire(
    engine: Engine, run: Run, row: ScheduleRow, now: datetime, missed_before: datetime
) -> list[Run]:
    """Create the runs of ``row``'s due slots (queued) and move it to its next slot."""
    table = Timetable.parse(row.spec)
    if table.depends_on_past and row.last_run_uuid and not row.released:
        last = await store.get_run(engine.conn, row.last_run_uuid)
        if last is not None and last.status is not S.SUCCEEDED:
            row.waiting_on = last.uuid  # released when it succeeds, or by `schedules resume`
            await schedule_store.update(engine.conn, row)
            log.info("schedule.held", schedule=run.uuid, waiting_on=last.uuid)
            return []
    assert row.next_fire_at is not None
    due = table.due(
        row.next_fire_at, now, fired=row.fired, missed_before=missed_before, on_time=row.released
    )
    created = [c for slot in due.fire if (c := await _create(engine, run, slot))]
    if due.fire:
        row.last_run_uuid = pipelines.scheduled_run(run, due.fire[-1]).uuid
    row.fired += len(due.fire)
    row.next_fire_at, row.released = due.next_at, False
    await schedule_store.update(engine.conn, row)
    skipped = "" if due.fire else "missed slots skipped"
    log.info("schedule.fired", schedule=run.uuid, runs=len(due.fire), next_at=due.next_at,
             note=skipped or None)  # fmt: skip
    if due.next_at is None:
        await pipelines.advance(engine, run.uuid)
    return created


async def _create(engine: Engine, schedule: Run, slot: datetime) -> Run | None:
    """The slot's run, created queued (its queue admits it after the commit); ``None`` when
    it exists (a backfill came first). The
    read comes first: an insert that met the row would wait for whoever is updating it (the
    run ending, which waits for this schedule's lock)."""
    child = pipelines.scheduled_run(schedule, slot)
    if await store.get_run(engine.conn, child.uuid) is not None:
        return None
    await engine.create_queued(child)
    return child


async def backfill(
    engine: Engine, schedule: Run, start: datetime, end: datetime
) -> tuple[list[str], list[Run]]:
    """Create the runs of ``schedule``'s slots from ``start`` to ``end``, queued (each once: a
    slot that has its run already keeps it; :func:`admit` them once committed); the uuids of
    the slots' runs, and the runs created."""
    row = await schedule_store.get(engine.conn, schedule.uuid)
    if row is None:
        raise ValueError(f"run {schedule.uuid} is not a schedule")
    table = Timetable.parse(row.spec)
    slots = table.slots(start, end)
    created = [c for slot in slots if (c := await _create(engine, schedule, slot))]
    return [pipelines.scheduled_run(schedule, slot).uuid for slot in slots], created


async def _clock(ctx: Context) -> None:
    """Fire what is due, then sleep until the next slot, a NOTIFY, or the poll interval."""
    wake = asyncio.Event()
    listening = asyncio.create_task(_listen(ctx, wake), name="schedules-listen")
    healthy_since: datetime | None = None
    try:
        while True:
            wake.clear()
            since = healthy_since or datetime.now(UTC)
            try:
                fired = await fire_due(ctx, since)
                healthy_since = since
                if fired >= _BATCH:
                    continue
                async with ctx.pool.acquire() as conn:
                    earliest = await schedule_store.earliest(conn)
            except Exception as exc:  # noqa: BLE001 - outlive PostgreSQL restarts
                log.warning("schedules.clock_failed", error=str(exc))
                healthy_since = None
                await asyncio.sleep(_RETRY)
                continue
            delay = ctx.settings.schedule_poll
            if earliest is not None:
                delay = min(delay, max(0.0, (earliest - datetime.now(UTC)).total_seconds()))
            await wait_event(wake, delay)
    finally:
        await cancel_and_wait([listening])


async def _listen(ctx: Context, wake: asyncio.Event) -> None:
    """Set ``wake`` on each change to the clock, listening again when the connection is lost."""
    while True:
        try:
            async with ctx.pool.acquire() as conn:
                await _listen_on(conn, wake)
        except Exception as exc:  # noqa: BLE001 - the poll keeps the clock going meanwhile
            log.warning("schedules.listen_failed", error=str(exc))
        await asyncio.sleep(_RETRY)


async def _listen_on(conn: Connection, wake: asyncio.Event) -> None:
    lost = asyncio.Event()
    conn.add_termination_listener(lambda _: lost.set())
    channel = await conn.fetchval(schedule_store.CHANNEL_SQL)

    def notified(*_: object) -> None:
        wake.set()

    await conn.add_listener(channel, notified)
    try:
        await lost.wait()
    finally:
        with contextlib.suppress(Exception):
            await conn.remove_listener(channel, notified)


def start_clock(ctx: Context) -> None:
    """Run the clock while the service runs."""
    tasks: list[asyncio.Task[None]] = []

    async def started() -> None:
        tasks.append(asyncio.create_task(_clock(ctx), name="schedules-clock"))

    async def stopping() -> None:
        await cancel_and_wait(tasks)

    ctx.on_startup(started)
    ctx.on_shutdown(stopping)
