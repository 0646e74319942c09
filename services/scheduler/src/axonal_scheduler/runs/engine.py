"""Run progress inside one transaction: compile stage, queues, reports, stops, cascades.

The flow every other one goes through. It calls :mod:`~axonal_scheduler.runs.pipelines`
(which sees it only as a :class:`~axonal_scheduler.runs.pipelines.RunControl`) and
:mod:`~axonal_scheduler.runs.lifecycle` (one transition and its events).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import partial
from typing import Any

import structlog

from axonal_db import Connection
from axonal_events import DONE_STATUSES, RunStatus
from axonal_events.commands import ExecuteRun, OptimizeSweep, StatusReport
from axonal_scheduler.context import Context
from axonal_scheduler.domain.admission import admit
from axonal_scheduler.domain.env import env_values
from axonal_scheduler.domain.pipeline import is_adaptive
from axonal_scheduler.domain.resolve import UnresolvedError, resolve
from axonal_scheduler.domain.schedules import Timetable
from axonal_scheduler.domain.statuses import ACTIVE, NOT_STARTED
from axonal_scheduler.logs import store as logs_store
from axonal_scheduler.runs import builds, pipelines, quota_store, schedule_store, store
from axonal_scheduler.runs.components import fetch_component, latest_metrics
from axonal_scheduler.runs.joined import Joined, Metrics, joined, reads_others
from axonal_scheduler.runs.lifecycle import Tx, record_created, set_status
from axonal_scheduler.runs.store import Run
from axonal_scheduler.settings import SchedulerSettings
from axonal_spec.hub import Fetch

__all__ = ["PIPELINE_KINDS", "Engine"]

log = structlog.get_logger(__name__)
S = RunStatus
PIPELINE_KINDS = frozenset({"dag", "matrix", "schedule"})


class Engine:
    """The scheduler's decisions for one transaction; every change goes through ``set``."""

    def __init__(
        self, tx: Tx, settings: SchedulerSettings, components: Fetch, metrics: Metrics
    ) -> None:
        self.tx, self.conn, self.settings = tx, tx.conn, settings
        self.components = components  # where a submission's hubRef components come from
        self.metrics = metrics  # the last metric values a join reads
        self._watched: list[str] = []  # DAGs whose ops wait on a status one of theirs reached

    @classmethod
    @asynccontextmanager
    async def within(cls, conn: Connection, ctx: Context) -> AsyncIterator[Engine]:
        """The engine of the open transaction ``conn``, with ``ctx``'s subjects and settings;
        what it decided is written (history and events) when the block ends without error.
        Once the transaction commits, publish ``engine.tx.events`` with
        ``ctx.publish_committed`` (the relay's poll would publish them within a second)."""
        engine = cls(
            Tx(conn, ctx.subjects, ctx.source),
            ctx.settings,
            partial(fetch_component, ctx),
            partial(latest_metrics, ctx),
        )
        yield engine
        await engine.settle()
        await engine.tx.flush()

    async def settle(self) -> None:
        """Move on the DAGs an op's status change concerns (``events`` triggers), after the
        change that made it, never inside another DAG step."""
        while self._watched:
            await pipelines.advance(self, self._watched.pop(0))

    async def create(self, run: Run) -> bool:
        """Record a new run; it takes its queue's priority unless it carries one."""
        run.priority = run.priority or self.settings.priority(run.queue)
        return await record_created(self.tx, run)

    async def create_queued(self, run: Run) -> bool:
        """Record a new run straight to ``queued`` (``created`` and ``compiled`` recorded on
        the way) when it needs nothing :meth:`proceed` would do first: approved, complete (no
        value to read), not cached, not a pipeline; else as ``created``, for a later
        :meth:`proceed`. ``False`` if the uuid exists."""
        plain = run.is_approved and not run.compiled.get("deferred")
        plain = plain and not _section(run, "cache") and run.kind not in PIPELINE_KINDS
        if not plain:
            return await self.create(run)
        run.priority = run.priority or self.settings.priority(run.queue)
        return await record_created(self.tx, run, then=(S.COMPILED, S.QUEUED))

    async def set(
        self,
        run: Run,
        status: RunStatus,
        reason: str | None = None,
        message: str | None = None,
        *,
        cascade: bool = True,
        force: bool = False,
    ) -> bool:
        """Change the status; a done run frees its slot and moves its pipeline on."""
        changed = await set_status(self.tx, run, status, reason, message, force=force)
        if changed and cascade and status in DONE_STATUSES:
            await self.after_done(run)
        elif changed and run.pipeline_uuid and status.value in run.compiled.get("watched", ()):
            self._watched.append(run.pipeline_uuid)
        return changed

    async def after_done(self, run: Run) -> None:
        if run.kind not in PIPELINE_KINDS:
            queues = {run.queue}
            if await quota_store.limited(self.conn, self.settings.default_project_concurrency):
                # its project's slot is free: its runs waiting in other queues may go too
                queues.update(await quota_store.queues_waiting(self.conn, run.owner, run.project))
            for queue in sorted(queues):
                await self.admit(queue)
        if run.pipeline_uuid:
            await pipelines.on_child_done(self, run)
        for waiter in await store.take_waiters(self.conn, run.uuid):  # ref: runs.<this run>
            found = await store.lock_run(self.conn, waiter)
            if found is None or found.status is not S.CREATED:
                continue
            if found.pipeline_uuid:
                await pipelines.advance(self, found.pipeline_uuid)
            else:
                await self.proceed(found)

    async def others(self, run: Run) -> Joined:
        """What ``run`` reads of other runs (joins, ``ref: runs.X``); when it must wait for
        one, the wait is recorded (that run's end takes it on)."""
        found = await joined(self.conn, run, self.metrics)
        if found.waiting_on is not None:
            await store.add_waiter(self.conn, found.waiting_on, run.uuid)
        return found

    async def _read_others(self, run: Run) -> bool:
        """Resolve a run's joins and ``ref: runs.X`` params; ``False`` when it cannot start
        now (it waits, is skipped by its conditions, or failed to resolve)."""
        try:
            found = await self.others(run)
            if found.waiting_on is not None:
                return False
            resolved = resolve(
                run.compiled, {**run.inputs, **found.values}, found.runs, uuid=run.uuid,
                owner=run.owner, project=run.project, name=run.name,
            )  # fmt: skip
        except UnresolvedError as exc:
            await self.set(run, S.FAILED, "ResolutionError", str(exc))
            return False
        if resolved.skip:
            await self.set(run, S.SKIPPED, "ConditionsNotMet", "conditions are false")
            return False
        run.inputs = resolved.inputs
        run.compiled = {**run.compiled, "run": resolved.run, "deferred": []}
        return True

    async def proceed(self, run: Run, *, cascade: bool = True, admit: bool = True) -> None:
        """Take an approved ``created``/``resuming``/``retrying`` run as far as it goes now
        (``admit``: its queue admits it now, else it stays queued until the queue next does)."""
        if not run.is_approved and run.status is S.CREATED:
            return
        if run.kind in PIPELINE_KINDS:
            await self.set(run, S.COMPILED)
            await self._start_pipeline(run)
            return
        if run.compiled.get("builder") and not await builds.built(self, run):
            return  # its builder runs first
        reads = bool(run.compiled.get("deferred")) and reads_others(run.compiled)
        if reads and not await self._read_others(run):
            return
        if await self._cache_hit(run, cascade=cascade):
            return
        if run.status is not S.RETRYING:
            await self.set(run, S.COMPILED)
        await self.set(run, S.QUEUED)
        if admit:
            await self.admit(run.queue)

    async def _start_pipeline(self, run: Run) -> None:
        if run.kind == "schedule":
            await self._start_schedule(run)
            return
        if is_adaptive(run.kind, run.compiled):
            await self.set(run, S.RUNNING, "Adaptive", "the optimization service suggests trials")
            search = OptimizeSweep(
                sweep_uuid=run.uuid,
                owner=run.owner,
                project=run.project,
                name=run.name,
                search_space=run.compiled["matrix"].get("search_space") or {},
            )
            subject = self.tx.subjects.command("optimization", "start")
            self.tx.emit(search, project=run.full_project, subject=subject)
            return
        await self.set(run, S.RUNNING)
        await pipelines.expand(self, run)
        await pipelines.advance(self, run.uuid)

    async def _start_schedule(self, run: Run) -> None:
        """Start a schedule's clock: the schedule runs, and creates a run per slot."""
        spec = dict(run.compiled.get("schedule") or {})
        try:
            table = Timetable.parse(spec)
        except ValueError as exc:
            await self.set(run, S.FAILED, "ScheduleError", str(exc))
            return
        first = table.first(datetime.now(UTC))
        if table.kind == "interval" and first is not None:
            spec["startAt"] = first.isoformat()  # its slots keep this phase, after a restart too
        await self.set(run, S.RUNNING, "Scheduled", f"first run at {first}" if first else None)
        await schedule_store.insert(self.conn, run.uuid, spec, first)

    async def _cache_hit(self, run: Run, *, cascade: bool) -> bool:
        cache = _section(run, "cache")
        if not cache or cache.get("disable") or not run.content_hash:
            return False
        hit = await store.cached(self.conn, run.content_hash, run.uuid)
        if hit is None:
            return False
        run.cache_hit_of, run.outputs = hit.uuid, dict(hit.outputs)
        await self.set(run, S.COMPILED)
        await self.set(run, S.SUCCEEDED, "CacheHit", f"cached by run {hit.uuid}", cascade=cascade)
        return True

    async def admit(self, queue: str) -> None:
        """Schedule as many queued runs of ``queue`` as its free slots allow, and no more of
        a project than its concurrency quota does (the others stay queued).

        While any project is bounded, admissions take turns across queues too (one lock,
        taken before any queue's): a project's runs in two queues never pass its bound."""
        default = self.settings.default_project_concurrency
        limited = await quota_store.limited(self.conn, default)
        if limited:
            await self.conn.execute("SELECT pg_advisory_xact_lock(hashtext('admission'))")
        await self.conn.execute("SELECT pg_advisory_xact_lock(hashtext('queue:' || $1))", queue)
        concurrency = self.settings.concurrency(queue)
        statuses = [s.value for s in ACTIVE]
        room: dict[str, int] = {}
        if limited:
            room = await quota_store.project_room(self.conn, queue, default, statuses)
        active = await store.count_in(self.conn, queue, statuses)
        while True:  # a page of a full project's runs must not hide the others' behind it
            full = [project for project, left in room.items() if left <= 0]
            waiting = await store.queued(self.conn, queue, concurrency, full)
            chosen = admit(waiting, active=active, concurrency=concurrency, room=room)
            if not chosen:
                return
            projects = {w.uuid: w.project for w in waiting}
            for uuid in chosen:
                active += 1
                if projects[uuid] in room:
                    room[projects[uuid]] -= 1
                run = await store.lock_run(self.conn, uuid)
                if run is not None and run.status is S.QUEUED:
                    await self.set(run, S.SCHEDULED)
                    await self._execute(run)
            if not room:
                return

    async def _execute(self, run: Run) -> None:
        termination = _section(run, "termination")
        timeout, ttl = termination.get("timeout"), termination.get("ttl")
        command = ExecuteRun(
            run_uuid=run.uuid,
            attempt=run.attempt,
            owner=run.owner,
            project=run.project,
            name=run.name,
            queue=run.queue,
            run=run.compiled["run"],
            inputs=run.inputs,
            to_env=env_values(run.compiled.get("to_env") or {}, run.inputs),
            timeout_seconds=float(timeout) if timeout else None,
            ttl_seconds=_seconds(ttl),
            build=_build(run),
            probe=termination.get("probe") if isinstance(termination.get("probe"), dict) else {},
        )
        self.tx.emit(
            command, project=run.full_project, subject=self.tx.subjects.agent_queue(run.queue)
        )

    async def report(self, report: StatusReport) -> None:
        """Apply an agent's report; late reports of other attempts or done runs are ignored."""
        if report.log_lines is not None:
            await logs_store.record_log_total(
                self.conn, report.run_uuid, report.attempt, report.log_lines
            )
        run = await store.lock_run(self.conn, report.run_uuid)
        if run is None or run.attempt != report.attempt or run.status in DONE_STATUSES:
            log.info(
                "run.report_ignored",
                run=report.run_uuid,
                attempt=report.attempt,
                status=report.status,
                current=run.status if run else None,
            )
            return
        known = run.agent == report.agent
        run.agent = report.agent  # written with the status (or below, when that stays)
        if report.outputs:
            run.outputs = {**run.outputs, **report.outputs}
        if report.endpoints:
            run.endpoints = report.endpoints
        message = report.message
        if report.exit_code is not None and report.status is S.FAILED:
            message = _with_exit_code(report.reason, message, report.exit_code)
        if report.status is S.FAILED and run.status is not S.STOPPING and self._retries_left(run):
            if await self.set(run, S.RETRYING, report.reason, message):
                run.attempt += 1
                await self.set(run, S.QUEUED, "Retry", f"attempt {run.attempt}")
                await self.admit(run.queue)
            elif not known:
                await store.set_agent(self.conn, run.uuid, report.agent)
            return
        if report.status is S.RUNNING and run.status is S.SCHEDULED:
            await self.set(run, S.STARTING)  # an agent with no init steps to run starts at once
        reason = report.reason
        if report.status is S.STOPPED and run.status is S.STOPPING and run.reason:
            reason = run.reason  # why it was stopped (Pruned...), not how the process ended
        if not await self.set(run, report.status, reason, message) and not known:
            await store.set_agent(self.conn, run.uuid, report.agent)

    def _retries_left(self, run: Run) -> bool:
        termination = _section(run, "termination")
        return run.attempt <= int(termination.get("maxRetries") or 0)

    async def stop(self, run: Run, reason: str = "Stopped", *, cascade: bool = True) -> None:
        """Stop a run: at once if not started, else ``stopping`` (the agent or children end it)."""
        if run.status in DONE_STATUSES:
            return
        if not run.managed:  # tracked from the SDK: no agent to wait for
            await self.set(run, S.STOPPED, reason, "stopped by a user", cascade=cascade)
            return
        if run.status in NOT_STARTED:
            await self.set(run, S.STOPPED, reason, "stopped before it started", cascade=cascade)
            if run.kind in PIPELINE_KINDS:
                for child in await store.children(self.conn, run.uuid):
                    await self.stop(child, cascade=False)
            return
        if run.status is not S.STOPPING:
            await self.set(run, S.STOPPING, reason, None)
        if run.kind in PIPELINE_KINDS:
            for child in await store.children(self.conn, run.uuid):
                await self.stop(child, cascade=False)
            await pipelines.advance(self, run.uuid)


def _build(run: Run) -> dict[str, Any] | None:
    """What a builder run builds: the image to push and the build context (if given)."""
    if not run.compiled.get("builds"):
        return None
    return {"destination": run.inputs.get("destination"), "context": run.inputs.get("context")}


def _section(run: Run, key: str) -> dict[str, Any]:
    """A compiled section as a mapping (a section still written as a template counts as unset)."""
    value = run.compiled.get(key)
    return value if isinstance(value, dict) else {}


def _seconds(value: Any) -> float | None:
    """A resolved number of seconds (``None`` when unset or not a number)."""
    try:
        return float(value) if value is not None and float(value) >= 0 else None
    except (TypeError, ValueError):
        return None


def _with_exit_code(reason: str | None, message: str | None, exit_code: int) -> str:
    """A failed exit keeps its code in the message, before the agent's last log lines."""
    code = f"exit code {exit_code}"
    if not message:
        return code
    if reason not in (None, "ExitCode") or code in message:
        return message
    return f"{code}\n{message}"
