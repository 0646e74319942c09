"""SQL for deliveries: added per event, claimed by workers, their attempts, read, replayed;
the circuits of their URLs (``endpoints``) and the ``targets`` they go to (the view over
webhook subscriptions and connections)."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime, timedelta

from axonal_db import Connection
from axonal_events.webhooks import DeliveryAttempt, DeliveryInfo, DeliveryStatus, ReplaySelection
from axonal_notifications.domain.breaker import Circuit
from axonal_notifications.domain.deliveries import Job, NewDelivery, Outcome, Verdict

__all__ = [
    "add",
    "circuits",
    "claim_due",
    "kill_waiting",
    "list_for",
    "record",
    "release",
    "replay",
    "reschedule",
    "save_circuits",
]


async def add(conn: Connection, deliveries: Sequence[NewDelivery]) -> int:
    """Insert pending deliveries; one already there (an event seen again) is left as it is."""
    status: str = await conn.execute(
        "INSERT INTO deliveries (target_id, event_id, event_type, payload, correlation_id, "
        "next_attempt_at) SELECT n.*, now() FROM unnest($1::text[], $2::text[], $3::text[], "
        "$4::bytea[], $5::text[]) AS n(target_id, event_id, event_type, payload, correlation_id) "
        "ON CONFLICT DO NOTHING",
        [d.target_id for d in deliveries],
        [d.event_id for d in deliveries],
        [d.event_type for d in deliveries],
        [d.payload for d in deliveries],
        [d.correlation_id for d in deliveries],
    )
    return int(status.rsplit(" ", 1)[1])


async def claim_due(
    conn: Connection, limit: int, lease: timedelta, threshold: int
) -> tuple[list[Job], set[str]]:
    """Claim due deliveries of enabled targets for ``lease`` (replicas skip the rows another
    one is claiming; an attempt whose outcome is never recorded is made again once its lease
    has passed). Returns the jobs and which of their URLs have a circuit tripped (``threshold``
    failures or more, read without locking)."""
    rows = await conn.fetch(
        "WITH due AS (SELECT d.target_id, d.event_id FROM deliveries d "
        "JOIN targets t ON t.id = d.target_id "
        "WHERE d.status IN ('pending', 'failed') AND d.next_attempt_at <= now() AND t.enabled "
        "ORDER BY d.next_attempt_at LIMIT $1 FOR UPDATE OF d SKIP LOCKED) "
        "UPDATE deliveries d SET next_attempt_at = now() + $2, held = false "
        "FROM due, targets t WHERE d.target_id = due.target_id "
        "AND d.event_id = due.event_id AND t.id = d.target_id "
        "RETURNING d.target_id, d.event_id, d.event_type, d.payload, d.attempts, "
        "d.round_start, d.correlation_id, t.url, t.secret, t.kind, t.project, "
        "t.settings::text AS settings, EXISTS (SELECT 1 FROM endpoints e "
        "WHERE e.url = t.url AND e.failures >= $3) AS tripped",
        limit,
        lease,
        threshold,
    )
    jobs = [
        Job(
            row["target_id"], row["event_id"], row["event_type"], row["project"], row["url"],
            row["secret"], bytes(row["payload"]), row["attempts"], row["round_start"],
            row["kind"], json.loads(row["settings"]), row["correlation_id"],
        )
        for row in rows
    ]  # fmt: skip
    return jobs, {row["url"] for row in rows if row["tripped"]}


async def reschedule(
    conn: Connection, jobs: Sequence[Job], at: datetime, *, held: bool = False
) -> None:
    """Put ``jobs`` off until ``at``: the lease of an attempt in flight (an attempt whose
    outcome is never recorded is made again then) or, ``held``, the end of a circuit's wait."""
    await conn.execute(
        "UPDATE deliveries d SET next_attempt_at = $3, held = $4 "
        "FROM unnest($1::text[], $2::text[]) AS j(target_id, event_id) "
        "WHERE d.target_id = j.target_id AND d.event_id = j.event_id",
        [j.target_id for j in jobs],
        [j.event_id for j in jobs],
        at,
        held,
    )


async def release(conn: Connection, urls: Sequence[str]) -> int:
    """Deliveries held by the circuits of ``urls`` (closed again) are due now."""
    status: str = await conn.execute(
        "UPDATE deliveries d SET next_attempt_at = now(), held = false FROM targets t "
        "WHERE t.id = d.target_id AND t.url = ANY($1::text[]) AND d.held "
        "AND d.status IN ('pending', 'failed')",
        list(urls),
    )
    return int(status.rsplit(" ", 1)[1])


async def circuits(conn: Connection, urls: Sequence[str]) -> dict[str, Circuit]:
    """The circuits of ``urls``, locked for this transaction."""
    await conn.execute(
        "INSERT INTO endpoints (url) SELECT unnest($1::text[]) ON CONFLICT DO NOTHING",
        sorted(urls),
    )
    rows = await conn.fetch(
        "SELECT url, failures, open_until FROM endpoints WHERE url = ANY($1::text[]) "
        "ORDER BY url FOR UPDATE",
        sorted(urls),
    )
    return {row["url"]: Circuit(row["failures"], row["open_until"]) for row in rows}


async def save_circuits(conn: Connection, changed: dict[str, Circuit]) -> None:
    await conn.executemany(
        "UPDATE endpoints SET failures = $2, open_until = $3 WHERE url = $1",
        [(url, c.failures, c.open_until) for url, c in changed.items()],
    )


_RECORD_SQL = (
    "WITH o AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::timestamptz[], "
    "$5::int[], $6::float8[], $7::text[], $8::text[], $9::text[], $10::timestamptz[]) "
    "AS o(target_id, event_id, number, at, status_code, latency_ms, excerpt, error, status, "
    "next_at)), "
    "logged AS (INSERT INTO delivery_attempts (target_id, event_id, number, at, status_code, "
    "latency_ms, response_excerpt, error) SELECT o.target_id, o.event_id, o.number, o.at, "
    "o.status_code, o.latency_ms, o.excerpt, o.error FROM o "
    "JOIN deliveries d USING (target_id, event_id) ON CONFLICT DO NOTHING), "
    "judged AS (UPDATE deliveries d SET status = o.status, attempts = o.number, "
    "next_attempt_at = o.next_at, updated_at = now() FROM o "
    "WHERE d.target_id = o.target_id AND d.event_id = o.event_id), "
    "closed AS (UPDATE endpoints SET failures = 0, open_until = NULL "
    "WHERE url = ANY($11::text[]) AND (failures > 0 OR open_until IS NOT NULL) RETURNING url) "
    "SELECT url FROM closed"
)


async def record(
    conn: Connection, judged: Sequence[tuple[Outcome, Verdict]], answered: Sequence[str]
) -> list[str]:
    """In one statement: each attempt into the log, each delivery's new state (deleted ones
    are skipped) and the circuits of the ``answered`` URLs closed. Returns the URLs whose
    circuit had failures."""
    outcomes = [o for o, _ in judged]
    rows = await conn.fetch(
        _RECORD_SQL,
        [o.job.target_id for o in outcomes],
        [o.job.event_id for o in outcomes],
        [v.attempts for _, v in judged],
        [o.at for o in outcomes],
        [o.status_code for o in outcomes],
        [o.latency_ms for o in outcomes],
        [o.excerpt for o in outcomes],
        [o.error for o in outcomes],
        [v.status.value for _, v in judged],
        [v.next_attempt_at for _, v in judged],
        list(answered),
    )
    return [row["url"] for row in rows]


async def list_for(
    conn: Connection, target_id: str, status: DeliveryStatus | None, limit: int
) -> list[DeliveryInfo]:
    """The newest deliveries to a target with their attempts, oldest attempt first."""
    rows = await conn.fetch(
        "SELECT event_id, event_type, status, created_at, updated_at, next_attempt_at "
        "FROM deliveries WHERE target_id = $1 AND ($2::text IS NULL OR status = $2) "
        "ORDER BY created_at DESC, event_id DESC LIMIT $3",
        target_id,
        status.value if status else None,
        limit,
    )
    attempts: dict[str, list[DeliveryAttempt]] = defaultdict(list)
    for row in await conn.fetch(
        "SELECT event_id, number, at, status_code, latency_ms, response_excerpt, error "
        "FROM delivery_attempts WHERE target_id = $1 AND event_id = ANY($2::text[]) "
        "ORDER BY number",
        target_id,
        [row["event_id"] for row in rows],
    ):
        attempts[row["event_id"]].append(
            DeliveryAttempt.model_validate({k: v for k, v in row.items() if k != "event_id"})
        )
    return [
        DeliveryInfo(
            id=row["event_id"],
            target_id=target_id,
            event_type=row["event_type"],
            status=DeliveryStatus(row["status"]),
            attempts=attempts[row["event_id"]],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            next_attempt_at=row["next_attempt_at"],
        )
        for row in rows
    ]


async def replay(conn: Connection, target_id: str, selection: ReplaySelection) -> int:
    """Back to pending, due now, with a fresh retry schedule and the attempt log kept: the
    selection's delivery (whatever its status), or every dead one created in its window;
    returns how many."""
    status: str = await conn.execute(
        "UPDATE deliveries SET status = 'pending', round_start = attempts, "
        "next_attempt_at = now(), updated_at = now() WHERE target_id = $1 AND "
        "CASE WHEN $2::text IS NULL THEN status = 'dead' "
        "AND ($3::timestamptz IS NULL OR created_at >= $3) "
        "AND ($4::timestamptz IS NULL OR created_at < $4) "
        "ELSE event_id = $2 END",
        target_id,
        selection.delivery_id,
        selection.since,
        selection.until,
    )
    return int(status.rsplit(" ", 1)[1])


async def kill_waiting(conn: Connection, target_id: str) -> None:
    """The deliveries of a target that still wait are dead (replayable)."""
    await conn.execute(
        "UPDATE deliveries SET status = 'dead', next_attempt_at = NULL, updated_at = now() "
        "WHERE target_id = $1 AND status IN ('pending', 'failed')",
        target_id,
    )
