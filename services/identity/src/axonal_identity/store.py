"""SQL for the identity schema only."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from axonal_db import Connection
from axonal_events import CloudEvent, ProjectCreated
from axonal_events.identity import Project

__all__ = ["insert_project", "list_projects", "record_audits"]


async def insert_project(conn: Connection, project: ProjectCreated) -> Project | None:
    """Insert the project; ``None`` when the owner already has one of that name."""
    row = await conn.fetchrow(
        "INSERT INTO projects (id, owner, name, description) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (owner, name) DO NOTHING RETURNING id, owner, name, description, created_at",
        project.project_id,
        project.owner,
        project.name,
        project.description,
    )
    return Project.model_validate(dict(row)) if row else None


async def list_projects(conn: Connection, owner: str | None) -> list[Project]:
    rows = await conn.fetch(
        "SELECT id, owner, name, description, created_at FROM projects "
        "WHERE $1::text IS NULL OR owner = $1 ORDER BY owner, name",
        owner,
    )
    return [Project.model_validate(dict(row)) for row in rows]


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
