"""SQL of the ``runs`` and ``run_statuses`` tables: runs, their status history, the agent
that reported on each."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

from axonal_db import Connection
from axonal_events import RunStatus
from axonal_events.runs import StatusChange
from axonal_scheduler.domain.admission import Waiting

__all__ = [
    "HistoryRow",
    "Run",
    "RunFilter",
    "add_statuses",
    "add_waiter",
    "cached",
    "child_counts",
    "children",
    "count_in",
    "get_run",
    "insert_run",
    "list_runs",
    "lock_run",
    "lock_runs",
    "mark_deleted",
    "queued",
    "runs_of",
    "set_agent",
    "statuses",
    "take_waiters",
    "update_run",
    "was_deleted",
]

_COLUMNS = (
    "uuid, seq, owner, project, name, op_name, kind, status, reason, message, queue, priority, "
    "compiled::text AS compiled, content_hash, pipeline_uuid, original_uuid, attempt, "
    "is_approved, inputs::text AS inputs, outputs::text AS outputs, cache_hit_of, "
    "early_stopping::text AS early_stopping, created_at, queued_at, started_at, finished_at, "
    "deleted_at, managed, description, tags::text AS tags, progress, agent, "
    "endpoints::text AS endpoints"
)
_JSON = ("compiled", "inputs", "outputs", "early_stopping", "tags", "endpoints")


@dataclass
class Run:
    """One row of ``runs``; ``compiled`` is the CompiledOperation as JSON data."""

    uuid: str
    owner: str
    project: str
    kind: str
    status: RunStatus
    compiled: dict[str, Any]
    name: str | None = None
    op_name: str | None = None
    reason: str | None = None
    message: str | None = None
    queue: str = "default"
    priority: int = 0
    content_hash: str | None = None
    pipeline_uuid: str | None = None
    original_uuid: str | None = None
    attempt: int = 1
    is_approved: bool = True
    inputs: dict[str, Any] = field(default_factory=dict)
    outputs: dict[str, Any] = field(default_factory=dict)
    cache_hit_of: str | None = None
    early_stopping: list[dict[str, Any]] = field(default_factory=list)
    seq: int = 0
    created_at: datetime | None = None
    queued_at: datetime | None = None
    started_at: datetime | None = None
    finished_at: datetime | None = None
    deleted_at: datetime | None = None
    managed: bool = True
    description: str | None = None
    tags: list[str] = field(default_factory=list)
    progress: float | None = None
    agent: str | None = None  # the agent that reports on it
    endpoints: dict[str, str] = field(default_factory=dict)  # a service's URLs by port

    @property
    def full_project(self) -> str:
        return f"{self.owner}/{self.project}"


def _run(row: Any) -> Run:
    values = dict(row)
    for key in _JSON:
        values[key] = json.loads(values[key])
    values["status"] = RunStatus(values["status"])
    return Run(**values)


async def insert_run(conn: Connection, run: Run) -> bool:
    """Insert ``run`` (status ``created``); ``False`` if its uuid exists already."""
    row = await conn.fetchval(
        "INSERT INTO runs (uuid, owner, project, name, op_name, kind, status, reason, message, "
        "queue, priority, compiled, content_hash, pipeline_uuid, original_uuid, attempt, "
        "is_approved, inputs, outputs, early_stopping, created_at, managed, description, tags, "
        "queued_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::text::jsonb, $13, $14, $15, "
        "$16, $17, $18::text::jsonb, '{}', $19::text::jsonb, $20, $21, $22, $23::text::jsonb, "
        "$24) "
        "ON CONFLICT (uuid) DO NOTHING RETURNING true",
        run.uuid,
        run.owner,
        run.project,
        run.name,
        run.op_name,
        run.kind,
        run.status.value,
        run.reason,
        run.message,
        run.queue,
        run.priority,
        json.dumps(run.compiled),
        run.content_hash,
        run.pipeline_uuid,
        run.original_uuid,
        run.attempt,
        run.is_approved,
        json.dumps(run.inputs),
        json.dumps(run.early_stopping),
        run.created_at,
        run.managed,
        run.description,
        json.dumps(run.tags),
        run.queued_at,
    )
    return bool(row)


async def get_run(conn: Connection, uuid: str, *, lock: bool = False) -> Run | None:
    suffix = " FOR UPDATE" if lock else ""
    row = await conn.fetchrow(f"SELECT {_COLUMNS} FROM runs WHERE uuid = $1{suffix}", uuid)  # noqa: S608
    return _run(row) if row else None


async def was_deleted(conn: Connection, uuid: str) -> bool:
    """The run was deleted on its own, rows and all."""
    found = await conn.fetchval("SELECT true FROM deleted_runs WHERE uuid = $1", uuid)
    return bool(found)


async def lock_run(conn: Connection, uuid: str) -> Run | None:
    """The run, locked for the rest of the transaction."""
    return await get_run(conn, uuid, lock=True)


async def lock_runs(conn: Connection, uuids: Sequence[str]) -> list[Run]:
    """Those of the runs that exist, locked in uuid order (two lockers never cross)."""
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM runs WHERE uuid = ANY($1::text[]) ORDER BY uuid FOR UPDATE",  # noqa: S608
        list(uuids),
    )
    return [_run(row) for row in rows]


async def update_run(conn: Connection, run: Run) -> None:
    """Write back the mutable columns of ``run``."""
    await conn.execute(
        "UPDATE runs SET status = $2, reason = $3, message = $4, attempt = $5, "
        "is_approved = $6, inputs = $7::text::jsonb, outputs = $8::text::jsonb, "
        "compiled = $9::text::jsonb, queued_at = $10, started_at = $11, finished_at = $12, "
        "cache_hit_of = $13, deleted_at = $14, content_hash = $15, tags = $16::text::jsonb, "
        "progress = $17, agent = $18, endpoints = $19::text::jsonb WHERE uuid = $1",
        run.uuid,
        run.status.value,
        run.reason,
        run.message,
        run.attempt,
        run.is_approved,
        json.dumps(run.inputs),
        json.dumps(run.outputs),
        json.dumps(run.compiled),
        run.queued_at,
        run.started_at,
        run.finished_at,
        run.cache_hit_of,
        run.deleted_at,
        run.content_hash,
        json.dumps(run.tags),
        run.progress,
        run.agent,
        json.dumps(run.endpoints),
    )


async def mark_deleted(conn: Connection, uuid: str) -> None:
    """Hide a run and its children from reads (idempotent)."""
    await conn.execute(
        "UPDATE runs SET deleted_at = coalesce(deleted_at, now()) "
        "WHERE uuid = $1 OR pipeline_uuid = $1",
        uuid,
    )


async def children(conn: Connection, pipeline_uuid: str) -> list[Run]:
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM runs WHERE pipeline_uuid = $1 ORDER BY seq",  # noqa: S608
        pipeline_uuid,
    )
    return [_run(row) for row in rows]


class HistoryRow(NamedTuple):
    """One status change of a run, as its history keeps it."""

    run_uuid: str
    status: RunStatus
    reason: str | None
    message: str | None
    at: datetime


async def add_statuses(conn: Connection, rows: Sequence[HistoryRow]) -> None:
    """Append ``rows`` to the runs' histories, in order, in one statement."""
    if not rows:
        return
    await conn.execute(
        "INSERT INTO run_statuses (run_uuid, status, reason, message, at) "
        "SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], "
        "$5::timestamptz[])",
        [r.run_uuid for r in rows],
        [r.status.value for r in rows],
        [r.reason for r in rows],
        [r.message for r in rows],
        [r.at for r in rows],
    )


async def statuses(conn: Connection, uuid: str) -> list[StatusChange]:
    rows = await conn.fetch(
        "SELECT status, reason, message, at FROM run_statuses WHERE run_uuid = $1 ORDER BY id",
        uuid,
    )
    return [StatusChange.model_validate(dict(row)) for row in rows]


async def queued(
    conn: Connection, queue: str, limit: int, full: Sequence[str] = ()
) -> list[Waiting]:
    """The first ``limit`` runs waiting in ``queue`` but of the ``full`` projects
    (``owner/name``), in admission order (a deep backlog is read through its index)."""
    rows = await conn.fetch(
        "SELECT uuid, priority, COALESCE(queued_at, created_at) AS queued_at, seq, "
        "owner || '/' || project AS slug FROM runs WHERE queue = $1 AND status = 'queued' "
        "AND owner || '/' || project <> ALL($3::text[]) "
        "ORDER BY priority DESC, COALESCE(queued_at, created_at), seq LIMIT $2",
        queue,
        limit,
        list(full),
    )
    return [Waiting(r["uuid"], r["priority"], r["queued_at"], r["seq"], r["slug"]) for r in rows]


async def count_in(conn: Connection, queue: str, statuses: list[str]) -> int:
    value = await conn.fetchval(
        "SELECT count(*) FROM runs WHERE queue = $1 AND status = ANY($2::text[]) "
        "AND kind NOT IN ('dag', 'matrix', 'schedule') AND managed",
        queue,
        statuses,
    )
    return int(value or 0)


async def cached(conn: Connection, content_hash: str, uuid: str) -> Run | None:
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM runs WHERE content_hash = $1 AND status = 'succeeded' "  # noqa: S608
        "AND uuid <> $2 AND deleted_at IS NULL ORDER BY finished_at DESC LIMIT 1",
        content_hash,
        uuid,
    )
    return _run(row) if row else None


@dataclass(frozen=True)
class RunFilter:
    """Which runs of a project a list shows; ``None`` (or no tags) does not filter."""

    status: str | None = None
    pipeline_uuid: str | None = None
    kind: str | None = None
    tags: list[str] = field(default_factory=list)
    name: str | None = None  # a part of the name, in any case
    created_after: datetime | None = None
    created_before: datetime | None = None


_LIST_WHERE = (
    "owner = $1 AND project = $2 AND deleted_at IS NULL "
    "AND ($3::text IS NULL OR status = $3) "
    "AND ($4::text IS NULL OR pipeline_uuid = $4) "
    "AND ($5::text IS NULL OR kind = $5) "
    "AND tags @> $6::text::jsonb "
    "AND ($7::text IS NULL OR strpos(lower(name), lower($7)) > 0) "
    "AND ($8::timestamptz IS NULL OR created_at >= $8) "
    "AND ($9::timestamptz IS NULL OR created_at < $9)"
)


async def list_runs(
    conn: Connection, owner: str, project: str, where: RunFilter, limit: int, offset: int
) -> tuple[list[Run], int, dict[str, int]]:
    """A page of runs, newest first, with the total and each run's number of children."""
    args = (
        owner,
        project,
        where.status,
        where.pipeline_uuid,
        where.kind,
        json.dumps(where.tags),
        where.name,
        where.created_after,
        where.created_before,
    )
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM runs WHERE {_LIST_WHERE} "  # noqa: S608 - constant SQL
        "ORDER BY created_at DESC, seq DESC LIMIT $10 OFFSET $11",
        *args,
        limit,
        offset,
    )
    total = await conn.fetchval(f"SELECT count(*) FROM runs WHERE {_LIST_WHERE}", *args)  # noqa: S608
    runs = [_run(row) for row in rows]
    counts = await child_counts(conn, [r.uuid for r in runs])
    return runs, int(total or 0), counts


async def child_counts(conn: Connection, uuids: list[str]) -> dict[str, int]:
    rows = await conn.fetch(
        "SELECT pipeline_uuid, count(*) AS n FROM runs WHERE pipeline_uuid = ANY($1::text[]) "
        "GROUP BY pipeline_uuid",
        uuids,
    )
    return {row["pipeline_uuid"]: int(row["n"]) for row in rows}


async def set_agent(conn: Connection, run_uuid: str, agent: str) -> None:
    """Remember which agent reports on the run."""
    await conn.execute(
        "UPDATE runs SET agent = $2 WHERE uuid = $1 AND agent IS DISTINCT FROM $2", run_uuid, agent
    )


async def runs_of(conn: Connection, agent: str, statuses: list[str]) -> list[str]:
    """The runs ``agent`` reported on that are in one of ``statuses``, oldest first."""
    rows = await conn.fetch(
        "SELECT uuid FROM runs WHERE agent = $1 AND status = ANY($2::text[]) ORDER BY seq",
        agent,
        statuses,
    )
    return [row["uuid"] for row in rows]


async def add_waiter(conn: Connection, target: str, waiter: str) -> None:
    """``waiter`` starts once ``target`` is done (it reads ``target``'s values)."""
    await conn.execute(
        "INSERT INTO run_waits (target, waiter) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        target,
        waiter,
    )


async def take_waiters(conn: Connection, target: str) -> list[str]:
    """The runs that waited for ``target``, no longer waiting."""
    rows = await conn.fetch("DELETE FROM run_waits WHERE target = $1 RETURNING waiter", target)
    return [r["waiter"] for r in rows]
