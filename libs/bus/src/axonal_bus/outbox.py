"""Transactional outbox: write events with the state change, publish them after commit.

:func:`enqueue` inserts the event in the caller's transaction and notifies the relay at
commit. :class:`OutboxRelay` publishes pending rows with ``Nats-Msg-Id`` = event id and marks
them, under ``FOR UPDATE SKIP LOCKED`` so replicas share the work. A relay that dies after
publishing and before marking publishes again on restart; JetStream drops the duplicate
within its window and inbox-keeping consumers ignore it after that.

On a latency-critical path the writer publishes its own rows once its transaction has
committed (:meth:`PendingEvents.flush` with ``direct``, then :meth:`OutboxRelay.publish_now`),
which saves the notification, a second transaction and its query; the relay's poll is the
safety net for a writer that dies in between. Those rows are marked off the writer's path, in
one statement for all published meanwhile: a row published and not yet marked when the
process dies is published again by the relay, which JetStream drops as a duplicate.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Sequence
from typing import Any, NamedTuple

import asyncpg
import structlog
from nats.js import JetStreamContext

from axonal_bus.aio import cancel_and_wait, wait_event
from axonal_bus.log import HEADER_CORRELATION, HEADER_TYPE
from axonal_db import Connection, transaction
from axonal_events import CloudEvent, EventData, Subjects

__all__ = [
    "OutboxRelay",
    "OutboxRow",
    "PendingEvents",
    "enqueue",
    "enqueue_many",
    "event_headers",
]

log = structlog.get_logger(__name__)
# The relay of each schema listens on "<schema>_outbox"; NOTIFY is delivered at commit.
_CHANNEL_SQL = "SELECT current_schema() || '_outbox'"
_RELISTEN_DELAY = 1.0  # seconds before listening again on a new connection
_MAX_RETRY_DELAY = 5.0  # the longest wait between two failed relays (an outage)
_ENQUEUE_SQL = (
    "WITH added AS (INSERT INTO outbox (event_id, subject, payload, headers) "
    "VALUES ($1, $2, $3, $4::text::jsonb)) "
    "SELECT pg_notify(current_schema() || '_outbox', '')"
)
_INSERT_MANY_SQL = (  # the rows of unnest($1..$4): event ids, subjects, payloads, headers
    "INSERT INTO outbox (event_id, subject, payload, headers) "
    "SELECT e.event_id, e.subject, e.payload, e.headers::jsonb FROM unnest($1::text[], "
    "$2::text[], $3::bytea[], $4::text[]) AS e(event_id, subject, payload, headers) "
    "ON CONFLICT (event_id) DO NOTHING RETURNING id, event_id"
)
_ENQUEUE_MANY_SQL = (  # the same, and the relay notified at commit
    f"WITH added AS ({_INSERT_MANY_SQL}) SELECT pg_notify(current_schema() || '_outbox', '')"
)


class OutboxRow(NamedTuple):
    """A row written to the outbox, ready to publish."""

    id: int
    subject: str
    payload: bytes
    headers: dict[str, str]


def event_headers(event: CloudEvent[Any]) -> dict[str, str]:
    """NATS headers of an event: the dedup id plus what logs need without decoding."""
    headers = {"Nats-Msg-Id": event.id, HEADER_TYPE: event.type}
    if event.correlationid:
        headers[HEADER_CORRELATION] = event.correlationid
    return headers


async def enqueue(
    conn: Connection,
    subjects: Subjects,
    event: CloudEvent[EventData],
    *,
    subject: str | None = None,
) -> None:
    """Add ``event`` to the outbox inside the caller's open transaction.

    It goes to the event's own subject, or to ``subject`` (a command's address).
    """
    await conn.execute(
        _ENQUEUE_SQL,
        event.id,
        subject or subjects.event(event.event_type),
        event.to_json(),
        json.dumps(event_headers(event)),
    )


async def enqueue_many(
    conn: Connection, subjects: Subjects, events: Sequence[CloudEvent[EventData]]
) -> None:
    """Add ``events`` to the outbox in one statement inside the caller's open transaction,
    each to its own subject; an event already there (same id) is left as it is."""
    pending = PendingEvents(subjects)
    for event in events:
        pending.add(event)
    await pending.flush(conn)


class PendingEvents:
    """Events of an open transaction, written to the outbox together by :meth:`flush`.

    A transaction that emits many events (a status change, then the next, then a command)
    costs one statement instead of one per event; they keep the order they were added in.
    """

    def __init__(self, subjects: Subjects) -> None:
        self.subjects = subjects
        self._ids: list[str] = []
        self._subjects: list[str] = []
        self._payloads: list[bytes] = []
        self._headers: list[str] = []
        self.written: list[OutboxRow] = []  # by a direct flush, to publish after commit

    def add(self, event: CloudEvent[EventData], *, subject: str | None = None) -> None:
        """Queue ``event`` for its own subject, or for ``subject`` (a command's address)."""
        self._ids.append(event.id)
        self._subjects.append(subject or self.subjects.event(event.event_type))
        self._payloads.append(event.to_json())
        self._headers.append(json.dumps(event_headers(event)))

    async def flush(self, conn: Connection, *, direct: bool = False) -> None:
        """Write the queued events to the outbox in ``conn``'s transaction, and forget them.

        ``direct``: the caller publishes them itself once committed
        (:meth:`OutboxRelay.publish_now` with :attr:`written`), so the relay is not notified.
        """
        if not self._ids:
            return
        columns = (self._ids, self._subjects, self._payloads, self._headers)
        if not direct:
            await conn.execute(_ENQUEUE_MANY_SQL, *columns)
        else:
            position = {event_id: i for i, event_id in enumerate(self._ids)}
            for row in await conn.fetch(_INSERT_MANY_SQL, *columns):
                i = position[row["event_id"]]
                headers = dict(json.loads(self._headers[i]))
                self.written.append(
                    OutboxRow(row["id"], self._subjects[i], self._payloads[i], headers)
                )
        self._ids, self._subjects, self._payloads, self._headers = [], [], [], []


class OutboxRelay:
    """Publishes the outbox of one schema; run one per replica, they share the rows.

    Args:
        pool: a pool whose ``search_path`` is the service schema.
        js: JetStream context to publish with.
        batch_size: rows claimed per transaction.
        poll_interval: safety-net poll when no notification arrives.
    """

    def __init__(
        self,
        pool: asyncpg.Pool,
        js: JetStreamContext,
        *,
        batch_size: int = 256,
        poll_interval: float = 1.0,
    ) -> None:
        self.pool = pool
        self.js = js
        self.batch_size = batch_size
        self.poll_interval = poll_interval
        self._wake = asyncio.Event()
        self.listening = asyncio.Event()  # set once NOTIFY can wake the relay
        self._unmarked: list[int] = []  # published by their writer, not yet marked
        self._marking: asyncio.Task[None] | None = None

    async def relay_once(self) -> int:
        """Publish and mark one batch of pending rows; returns how many."""
        async with transaction(self.pool) as conn:
            rows = await conn.fetch(
                "SELECT id, subject, payload, headers::text AS headers FROM outbox "
                "WHERE published_at IS NULL ORDER BY id LIMIT $1 FOR UPDATE SKIP LOCKED",
                self.batch_size,
            )
            if not rows:
                return 0
            await self._publish(rows)
            await self._mark_published(conn, [row["id"] for row in rows])
        return len(rows)

    async def _publish(self, rows: list[asyncpg.Record]) -> None:
        await asyncio.gather(
            *(
                self.js.publish(row["subject"], bytes(row["payload"]), headers=_headers(row))
                for row in rows
            )
        )

    async def _mark_published(self, conn: Connection, ids: list[int]) -> None:
        await conn.execute(
            "UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])", ids
        )

    async def drain(self) -> int:
        """Publish everything pending now; returns how many rows were published.

        A batch smaller than ``batch_size`` was the last: rows committed since then have
        notified the relay, which drains again, so no query is spent to find nothing."""
        total = 0
        while True:
            batch = await self.relay_once()
            total += batch
            if batch < self.batch_size:
                return total

    async def run(self) -> None:
        """Relay until cancelled: woken by NOTIFY at commit, polling as a safety net.

        The listening connection is opened again when it is lost (PostgreSQL restarted);
        meanwhile the poll keeps the events moving.
        """
        relay = asyncio.create_task(self._loop(), name="outbox-relay")
        try:
            while True:
                try:
                    await self._listen()
                except Exception as exc:  # noqa: BLE001 - outlive PostgreSQL restarts
                    log.warning("outbox.listen_failed", error=str(exc))
                self.listening.clear()
                await asyncio.sleep(_RELISTEN_DELAY)
        finally:
            await cancel_and_wait([relay])
            await self.marked()

    async def _listen(self) -> None:
        """Listen for commits until the listening connection is lost."""
        async with self.pool.acquire() as listener:
            lost = asyncio.Event()
            listener.add_termination_listener(lambda _: lost.set())
            channel = await listener.fetchval(_CHANNEL_SQL)
            await listener.add_listener(channel, self._on_notify)
            self.listening.set()
            self._wake.set()  # rows committed while nobody listened
            try:
                await lost.wait()
            finally:
                with contextlib.suppress(Exception):
                    await listener.remove_listener(channel, self._on_notify)
            log.warning("outbox.listener_lost", channel=channel)

    async def _loop(self) -> None:
        failures = 0
        while True:
            self._wake.clear()
            try:
                await self.drain()
                failures = 0
            except Exception as exc:  # noqa: BLE001 - outlive NATS and PostgreSQL outages
                failures += 1
                log.warning("outbox.relay_failed", error=str(exc), error_type=type(exc).__name__)
                await asyncio.sleep(min(_MAX_RETRY_DELAY, 0.2 * 2**failures))
                continue
            await wait_event(self._wake, self.poll_interval)

    def _on_notify(self, *_: object) -> None:
        self._wake.set()

    async def publish_now(self, rows: Sequence[OutboxRow]) -> None:
        """Publish rows a committed transaction wrote with a direct flush; they are marked
        in the background (:meth:`marked` waits for that). On any failure the relay is woken
        instead, and publishes them (JetStream drops a row both publish, within its duplicate
        window)."""
        if not rows:
            return
        try:
            await asyncio.gather(
                *(self.js.publish(r.subject, r.payload, headers=r.headers) for r in rows)
            )
        except Exception as exc:  # noqa: BLE001 - the relay takes over
            log.warning("outbox.publish_now_failed", error=str(exc), rows=len(rows))
            self._wake.set()
            return
        self._unmarked.extend(r.id for r in rows)
        if self._marking is None or self._marking.done():
            self._marking = asyncio.create_task(self._mark_unmarked(), name="outbox-marks")

    async def _mark_unmarked(self) -> None:
        """Mark what writers published, one statement for all published meanwhile; on a
        failure the relay publishes those rows again (deduplicated), then marks them."""
        while self._unmarked:
            ids, self._unmarked = self._unmarked, []
            try:
                await self.pool.execute(
                    "UPDATE outbox SET published_at = now() "
                    "WHERE id = ANY($1::bigint[]) AND published_at IS NULL",
                    ids,
                )
            except Exception as exc:  # noqa: BLE001 - the relay takes over
                log.warning("outbox.mark_failed", error=str(exc), rows=len(ids))
                self._wake.set()

    async def marked(self) -> None:
        """Wait until the rows published by :meth:`publish_now` so far are marked."""
        if self._marking is not None:
            await asyncio.shield(self._marking)


def _headers(row: asyncpg.Record) -> dict[str, str]:
    return dict(json.loads(row["headers"]))
