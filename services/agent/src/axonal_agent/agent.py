"""The agent: takes attempts within its slots, runs them, stops them, reconciles on restart."""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Any

import structlog

from axonal_agent import store
from axonal_agent.attempt import Attempt, AttemptDeps
from axonal_agent.cleanup import Janitor
from axonal_agent.domain.resources import SlotLedger, run_resources
from axonal_agent.ports import Executor
from axonal_agent.reports import Reporter
from axonal_agent.settings import AgentSettings
from axonal_bus.aio import cancel_and_wait
from axonal_bus.broker import jetstream
from axonal_bus.inbox import process_once
from axonal_bus.outbox import OutboxRelay, event_headers
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import AgentHeartbeat, CloudEvent, RunStatus, new_event
from axonal_events.commands import ExecuteRun

__all__ = ["Agent"]

log = structlog.get_logger(__name__)

RESTARTED = "the agent restarted and the process was gone"
RESTARTED_ALIVE = "the agent restarted; the process it had left was stopped"
_REMEMBERED_STOPS = 1000


class Agent:
    """Everything one agent process holds in memory; the executions table holds the rest."""

    def __init__(self, settings: AgentSettings, executor: Executor) -> None:
        self.settings = settings
        self.executor = executor
        self.ledger = SlotLedger(settings.slots)
        self.attempts: dict[str, Attempt] = {}
        self.ready = asyncio.Event()
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._heartbeat: asyncio.Task[None] | None = None
        self._ctx: ServiceContext | None = None
        self._stopped: dict[str, None] = {}  # runs asked to stop, oldest first
        self._janitor: Janitor | None = None

    @property
    def ctx(self) -> ServiceContext:
        if self._ctx is None:
            raise RuntimeError("the agent is not bound to a service context")
        return self._ctx

    def bind(self, ctx: ServiceContext) -> None:
        self._ctx = ctx
        self.reporter = Reporter(self.settings.name, ctx.subjects)

    def _deps(self) -> AttemptDeps:
        ctx = self.ctx
        return AttemptDeps(
            self.settings,
            self.executor,
            ctx.pool,
            jetstream(ctx.broker),
            ctx.subjects,
            self.reporter,
            ctx.settings.nats_url,
        )

    # -- life cycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Reconcile what an earlier life left, then take work and heartbeat."""
        await self.reconcile()
        self._janitor = Janitor(self.ctx.pool, self.settings.name)
        await self._janitor.resume()
        self.ready.set()
        self._heartbeat = asyncio.create_task(self._beat(), name="agent-heartbeat")
        log.info("agent.ready", agent=self.settings.name, queues=self.settings.queues)

    async def stop(self) -> None:
        """Shut down: stop every process (their runs fail with ``AgentStopped``)."""
        self.ready.clear()
        if self._heartbeat is not None:
            await cancel_and_wait([self._heartbeat])
        for attempt in self.attempts.values():
            attempt.shutting_down = True
            attempt.request_stop()
        await asyncio.gather(*self._tasks.values(), return_exceptions=True)
        if self._janitor is not None:
            await self._janitor.close()
        with contextlib.suppress(Exception):  # the relay may be gone already: send the reports
            await OutboxRelay(self.ctx.pool, jetstream(self.ctx.broker)).drain()

    async def reconcile(self) -> int:
        """Report ``failed`` for every attempt an earlier life of this agent left open."""
        count = 0
        async with self.ctx.pool.acquire() as conn:
            left = await store.unfinished(conn, self.settings.name)
        for execution in left:
            key = f"{execution.run_uuid}:{execution.attempt}"
            if key in self.attempts:
                continue
            alive = False
            if execution.pid is not None:
                alive = await self.executor.reap(execution.pid, execution.started_at)
            async with transaction(self.ctx.pool) as conn:
                if not await store.finish(conn, execution.run_uuid, execution.attempt, "failed"):
                    continue
                await self.reporter.report(
                    conn,
                    execution.run_uuid,
                    execution.attempt,
                    RunStatus.FAILED,
                    reason="AgentRestarted",
                    message=RESTARTED_ALIVE if alive else RESTARTED,
                )
            count += 1
            log.warning("agent.reconciled", run_uuid=execution.run_uuid, was_alive=alive)
        return count

    # -- work ---------------------------------------------------------------------------
    async def accept(self, event: CloudEvent[ExecuteRun], consumer: str) -> bool:
        """Take the attempt if it fits in the free slots; ``False``: offer it again later."""
        await self.ready.wait()
        cmd = event.data
        key = f"{cmd.run_uuid}:{cmd.attempt}"
        if key in self.attempts:
            return True
        if cmd.run_uuid in self._stopped:
            why = "stopped before it started"
            await process_once(self.ctx.pool, consumer, event.id, self._close(cmd, "stopped", why))
            return True
        try:
            need = run_resources(cmd.run)
        except ValueError as exc:
            why = f"resources: {exc}"
            await process_once(self.ctx.pool, consumer, event.id, self._close(cmd, "failed", why))
            return True
        if not self.ledger.reserve(key, need):
            log.info("agent.no_slots", run_uuid=cmd.run_uuid, need=need.as_dict())
            return False
        folder = self.settings.work_root / cmd.run_uuid / str(cmd.attempt)
        attempt = Attempt(cmd, folder, event.correlationid, self._deps())

        async def record(conn: Connection) -> bool:
            added = await store.insert(
                conn,
                cmd.run_uuid,
                cmd.attempt,
                self.settings.name,
                cmd.queue,
                str(folder),
                cmd.ttl_seconds,
            )
            if added:
                await self.reporter.report(
                    conn,
                    cmd.run_uuid,
                    cmd.attempt,
                    RunStatus.STARTING,
                    project=attempt.project,
                    correlation_id=event.correlationid,
                )
            return added

        try:
            applied, added = await process_once(self.ctx.pool, consumer, event.id, record)
        except BaseException:
            self.ledger.release(key)
            raise
        if not (applied and added):
            self.ledger.release(key)
            return True
        self.attempts[key] = attempt
        self._tasks[key] = asyncio.create_task(self._run(key, attempt), name=f"run-{key}")
        return True

    def _close(self, cmd: ExecuteRun, status: str, why: str) -> Any:
        """An effect that records the attempt as done without running it, and reports it."""

        async def effect(conn: Connection) -> None:
            folder = str(self.settings.work_root / cmd.run_uuid / str(cmd.attempt))
            if await store.insert(
                conn, cmd.run_uuid, cmd.attempt, self.settings.name, cmd.queue, folder
            ):
                await store.finish(conn, cmd.run_uuid, cmd.attempt, status)
                await self.reporter.report(
                    conn,
                    cmd.run_uuid,
                    cmd.attempt,
                    RunStatus(status),
                    project=f"{cmd.owner}/{cmd.project}",
                    reason="Stopped" if status == "stopped" else "InvalidSpec",
                    message=why,
                )

        return effect

    async def _run(self, key: str, attempt: Attempt) -> None:
        try:
            await attempt.run()
            cmd = attempt.command
            if cmd.ttl_seconds is not None and self._janitor is not None:
                with contextlib.suppress(Exception):  # kept, as without a ttl
                    await self._janitor.attempt_ended(cmd.run_uuid, cmd.attempt, attempt.folder)
        finally:
            self.attempts.pop(key, None)
            self._tasks.pop(key, None)
            self.ledger.release(key)

    def on_stopping(self, run_uuid: str) -> bool:
        """A ``run.stopping`` event: stop that run if it executes here, never start it later."""
        self._stopped[run_uuid] = None
        while len(self._stopped) > _REMEMBERED_STOPS:
            del self._stopped[next(iter(self._stopped))]
        found = False
        for attempt in list(self.attempts.values()):
            if attempt.command.run_uuid == run_uuid:
                attempt.request_stop()
                found = True
        return found

    # -- heartbeats ---------------------------------------------------------------------
    def heartbeat(self) -> AgentHeartbeat:
        return AgentHeartbeat(
            agent=self.settings.name,
            queues=list(self.settings.queues),
            slots=self.ledger.capacity.as_dict(),
            free_slots=self.ledger.free.as_dict(),
            runs=sorted({a.command.run_uuid for a in self.attempts.values()}),
            interval_seconds=self.settings.heartbeat_seconds,
            at=datetime.now(UTC),
        )

    async def _beat(self) -> None:
        js = jetstream(self.ctx.broker)
        while True:
            event = new_event(self.heartbeat(), source=f"/axonal/agent/{self.settings.name}")
            with contextlib.suppress(Exception):
                await js.publish(
                    self.ctx.subjects.event(event.event_type),
                    event.to_json(),
                    headers=event_headers(event),
                )
            await asyncio.sleep(self.settings.heartbeat_seconds)
