"""SQL of the ``audit_log`` table."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from axonal_db import Connection
from axonal_events import CloudEvent

__all__ = ["purge_project", "record_audits"]


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
