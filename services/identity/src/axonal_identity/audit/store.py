"""SQL of the ``audit_log`` table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from axonal_db import Connection
from axonal_events import CloudEvent
from axonal_events.audit import AuditEntry, ListAuditRequest

__all__ = ["list_audit", "purge_project", "record_audits"]


async def record_audits(conn: Connection, events: Sequence[CloudEvent[dict[str, Any]]]) -> int:
    """Append ``events`` to the audit log in one statement; returns how many were not there."""
    status: str = await conn.execute(
        "INSERT INTO audit_log (event_id, type, source, subject, project, occurred_at, data) "
        "SELECT e.event_id, e.type, e.source, e.subject, e.project, e.occurred_at, "
        "e.data::jsonb FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], "
        "$6::timestamptz[], $7::text[]) AS e(event_id, type, source, subject, project, "
        "occurred_at, data) ON CONFLICT (event_id) DO NOTHING",
        [e.id for e in events],
        [e.type for e in events],
        [e.source for e in events],
        [e.subject for e in events],
        [e.project for e in events],
        [e.time for e in events],
        [json.dumps(e.data) for e in events],
    )
    return int(status.rsplit(" ", 1)[1])


async def purge_project(conn: Connection, slug: str, project_id: str, kept: Sequence[str]) -> int:
    """Delete the audited events of a project (named ``slug`` or carrying its id), but those
    of types ``kept``; returns how many."""
    status: str = await conn.execute(
        "DELETE FROM audit_log WHERE (project = $1 OR position($2 IN data::text) > 0) "
        "AND type <> ALL($3::text[])",
        slug,
        project_id,
        list(kept),
    )
    return int(status.rsplit(" ", 1)[1])


async def list_audit(
    conn: Connection, query: ListAuditRequest, after: tuple[datetime, str] | None
) -> list[AuditEntry]:
    """``query``'s entries, newest first, older than ``after`` (time, event id)."""
    rows = await conn.fetch(
        "SELECT event_id, type, occurred_at, actor, source, project, subject, data "
        "FROM audit_log WHERE org = $1 "
        "AND ($2::text IS NULL OR project = $1 || '/' || $2) "
        "AND ($3::text IS NULL OR actor = $3) "
        "AND ($4::text IS NULL OR type = $4 OR type = 'axonal.' || $4) "
        "AND ($5::timestamptz IS NULL OR occurred_at >= $5) "
        "AND ($6::timestamptz IS NULL OR occurred_at < $6) "
        "AND ($7::timestamptz IS NULL OR (occurred_at, event_id) < ($7, $8)) "
        "ORDER BY occurred_at DESC, event_id DESC LIMIT $9",
        query.org,
        query.project,
        query.actor,
        query.type,
        query.since,
        query.until,
        after[0] if after else None,
        after[1] if after else None,
        query.limit,
    )
    return [
        AuditEntry(
            event_id=row["event_id"],
            type=row["type"].removeprefix("axonal."),
            occurred_at=row["occurred_at"],
            actor=row["actor"],
            source=row["source"],
            project=row["project"],
            subject=row["subject"],
            data=json.loads(row["data"]) if isinstance(row["data"], str) else row["data"],
        )
        for row in rows
    ]
