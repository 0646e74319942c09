"""The delivery worker: claims due deliveries, sends them concurrently, records outcomes.

Deliveries go to webhook subscriptions and connections alike (each job's sender is picked
by its kind); URLs are logged masked, since chat webhook URLs carry tokens.

Replicas share the deliveries through ``FOR UPDATE SKIP LOCKED``: a claim holds each
delivery for the length of an attempt (if its outcome is never recorded, because the replica
died, it is due again after that). The worker wakes at once when this replica adds a
delivery or a retry falls due, and polls for the deliveries other replicas added. Outcomes
are written in batches by one recorder task, so a slow receiver never holds back others;
each is announced on the bus in the same transaction (see
:mod:`axonal_notifications.domain.announcements`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager, AsyncExitStack, nullcontext
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import structlog

from axonal_bus.aio import cancel_and_wait, wait_event
from axonal_bus.outbox import enqueue_many
from axonal_db import Connection, create_pool, transaction
from axonal_events import Subjects
from axonal_notifications.connections import store as connections_store
from axonal_notifications.deliveries import store
from axonal_notifications.domain.announcements import announcement
from axonal_notifications.domain.breaker import Circuit, CircuitState
from axonal_notifications.domain.deliveries import Job, Outcome, judge
from axonal_notifications.domain.secrets import mask_url
from axonal_notifications.ports import Sender
from axonal_notifications.webhooks import store as webhooks_store

__all__ = ["DeliveryWorker", "OpenSender", "WorkerConfig"]

log = structlog.get_logger(__name__)
_RECORD_BATCH = 500
_LEASE_MARGIN = timedelta(seconds=30)
_POOL_SIZE = 4

#: Opens the sender of every attempt, closed when the worker stops.
OpenSender = Callable[[], AbstractAsyncContextManager[Sender]]


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """Where the worker's own pool connects (the service's database and schema), and how
    deliveries are sent, retried and held by their circuits."""

    database_url: str
    schema: str
    schedule: tuple[float, ...]
    timeout: float
    breaker_threshold: int
    breaker_cooldown: float
    concurrency: int
    poll_interval: float


def _transaction(conn: Connection, *, open_one: bool) -> AbstractAsyncContextManager[Any]:
    return conn.transaction() if open_one else nullcontext()


class DeliveryWorker:
    """One per replica, built with the application: :meth:`start` once the service is up,
    :meth:`stop` when it stops, :meth:`wake` when deliveries are due now (it may be called
    before the start: the first look for due deliveries comes with it).

    Args:
        subjects: where the announcements of attempts go.
        config: see :class:`WorkerConfig`.
        open_sender: opens the sender of every attempt; called by :meth:`start`.
    """

    pool: asyncpg.Pool
    sender: Sender

    def __init__(self, subjects: Subjects, config: WorkerConfig, open_sender: OpenSender) -> None:
        self.subjects = subjects
        self.config = config
        self._open_sender = open_sender
        self._resources = AsyncExitStack()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._outcomes: asyncio.Queue[Outcome] = asyncio.Queue()
        self._inflight: set[asyncio.Task[Any]] = set()
        self._backlog = False
        self._hold = timedelta(seconds=config.timeout) + _LEASE_MARGIN

    def wake(self) -> None:
        self._wake.set()

    async def start(self) -> None:
        """Open the worker's own pool and its sender, and start sending.

        The pool's commits do not wait for the WAL flush (``synchronous_commit = off``): all
        the worker writes is claims and outcomes, and what a crash of PostgreSQL could lose
        of those (the last few milliseconds) only makes an attempt be made again, which
        at-least-once delivery allows (receivers dedupe by ``webhook-id``). The deliveries
        themselves are inserted by the intake through the service's pool, durably, before
        their events are acknowledged.
        """
        self.pool = await create_pool(
            self.config.database_url,
            schema=self.config.schema,
            max_size=_POOL_SIZE,
            server_settings={"synchronous_commit": "off"},
        )
        self._resources.push_async_callback(self.pool.close)
        self.sender = await self._resources.enter_async_context(self._open_sender())
        self._task = asyncio.create_task(self._run(), name="webhook-worker")

    async def stop(self) -> None:
        """Stop sending (attempts in flight are cancelled: their deliveries are due again
        once their claim has passed), then close the sender and the pool."""
        if self._task is not None:
            await cancel_and_wait([self._task])
        await self._resources.aclose()

    async def _run(self) -> None:
        recorder = asyncio.create_task(self._record_loop(), name="webhook-recorder")
        failures = 0
        try:
            while True:
                self._wake.clear()
                try:
                    await self._dispatch()
                    failures = 0
                except Exception as exc:  # noqa: BLE001 - outlive PostgreSQL outages
                    failures += 1
                    log.warning("webhooks.claim_failed", error=str(exc))
                    await asyncio.sleep(min(30.0, 0.2 * 2**failures))
                    continue
                if not self._backlog or len(self._inflight) >= self.config.concurrency:
                    await wait_event(self._wake, self.config.poll_interval)
        finally:
            await cancel_and_wait([*self._inflight, recorder])

    async def _dispatch(self) -> None:
        free = self.config.concurrency - len(self._inflight)
        if free <= 0:
            self._backlog = True
            return
        async with self.pool.acquire() as conn:
            jobs, held = await store.claim_due(
                conn, free, self._hold, self.config.breaker_threshold
            )
        self._backlog = len(jobs) == free
        sending = [job for job in jobs if job.url not in held]
        if held:
            sending += await self._through_breakers([job for job in jobs if job.url in held])
        for job in sending:
            task = asyncio.create_task(self._send(job))
            self._inflight.add(task)
            task.add_done_callback(self._done)

    async def _through_breakers(self, jobs: Sequence[Job]) -> list[Job]:
        """The jobs their URL's tripped circuit lets through now; the others wait for it."""
        now = datetime.now(UTC)
        by_url: dict[str, list[Job]] = defaultdict(list)
        for job in jobs:
            by_url[job.url].append(job)
        sending: list[Job] = []
        probing: dict[str, Circuit] = {}
        async with transaction(self.pool) as conn:
            circuits = await store.circuits(conn, list(by_url))
            for url, queued in by_url.items():
                circuit = circuits[url]
                match circuit.state(now, self.config.breaker_threshold):
                    case CircuitState.CLOSED:
                        sending += queued
                    case CircuitState.OPEN:
                        assert circuit.open_until is not None  # open means until a time
                        until = circuit.open_until
                        await store.reschedule(conn, queued, until, held=True)
                    case CircuitState.HALF_OPEN:
                        probing[url] = circuit.probing(now, self._hold)
                        sending.append(queued[0])
                        until = now + self._hold
                        await store.reschedule(conn, queued[1:], until, held=True)
                        log.info(
                            "webhooks.circuit_probe", url=mask_url(url), failures=circuit.failures
                        )
            if probing:
                await store.save_circuits(conn, probing)
        return sending

    async def _send(self, job: Job) -> None:
        await self._outcomes.put(await self.sender.send(job))

    def _done(self, task: asyncio.Task[Any]) -> None:
        self._inflight.discard(task)
        if self._backlog:
            self._wake.set()

    async def _record_loop(self) -> None:
        while True:
            batch = [await self._outcomes.get()]
            while not self._outcomes.empty() and len(batch) < _RECORD_BATCH:
                batch.append(self._outcomes.get_nowait())
            failures = 0
            while True:
                try:
                    await self._record(batch)
                    break
                except Exception as exc:  # noqa: BLE001 - keep the outcomes until stored
                    failures += 1
                    log.warning("webhooks.record_failed", error=str(exc), outcomes=len(batch))
                    await asyncio.sleep(min(30.0, 0.2 * 2**failures))

    async def _record(self, outcomes: Sequence[Outcome]) -> None:
        judged = [(o, judge(o, self.config.schedule)) for o in outcomes]
        failing = {o.job.url for o in outcomes if not (o.ok or o.gone)}
        answered = {o.job.url for o in outcomes} - failing
        announced = [a for o, v in judged if (a := announcement(o, v)) is not None]
        gone = [o for o in outcomes if o.gone]
        released = 0
        # first-time successes only (the common case) are one statement, atomic on its own;
        # releasing the deliveries a closed circuit held may follow it (they are due when
        # the circuit would have reopened anyway)
        single = not (failing or gone or announced)
        async with self.pool.acquire() as conn, _transaction(conn, open_one=not single):
            closed = await store.record(conn, judged, sorted(answered))
            await enqueue_many(conn, self.subjects, announced)
            if failing:
                closed += await self._count_failures(conn, failing, outcomes)
            if closed:
                released = await store.release(conn, closed)
            for outcome in gone:
                url = mask_url(outcome.job.url)
                reason = f"{url} answered 410 Gone at {outcome.at.isoformat()}"
                await _disable(conn, outcome.job.target_id, reason)
                log.warning("webhooks.disabled", target=outcome.job.target_id, reason=reason)
        if released:
            self._wake.set()
        loop = asyncio.get_running_loop()
        for _, verdict in judged:
            if verdict.next_attempt_at is not None:
                delay = (verdict.next_attempt_at - datetime.now(UTC)).total_seconds()
                loop.call_later(max(0.0, delay), self._wake.set)

    async def _count_failures(
        self, conn: Connection, urls: set[str], outcomes: Sequence[Outcome]
    ) -> list[str]:
        """Apply the outcomes to the circuits of ``urls`` in order; returns those closed
        again (a success after failures)."""
        now = datetime.now(UTC)
        circuits = await store.circuits(conn, list(urls))
        changed = dict(circuits)
        for outcome in outcomes:
            if outcome.job.url in urls:
                changed[outcome.job.url] = self._after(changed[outcome.job.url], outcome, now)
        await store.save_circuits(conn, {u: c for u, c in changed.items() if c != circuits[u]})
        return [u for u, c in changed.items() if c.failures == 0 and circuits[u].failures]

    def _after(self, circuit: Circuit, outcome: Outcome, now: datetime) -> Circuit:
        if outcome.ok or outcome.gone:
            return circuit.succeeded()
        threshold = self.config.breaker_threshold
        after = circuit.failed(now, threshold, timedelta(seconds=self.config.breaker_cooldown))
        if after.open_until is not None:
            log.warning(
                "webhooks.circuit_open", url=mask_url(outcome.job.url), until=after.open_until
            )
        return after


async def _disable(conn: Connection, target_id: str, reason: str) -> None:
    """A target that answered 410 Gone (a subscription or a connection) is disabled; its
    deliveries that still wait are dead (replayable)."""
    await webhooks_store.disable(conn, target_id, reason)
    await connections_store.disable(conn, target_id, reason)
    await store.kill_waiting(conn, target_id)
