"""SQL for the identity schema only."""

from __future__ import annotations

import json
from typing import Any

from axonal_db import Connection
from axonal_events import CloudEvent, ProjectCreated
from axonal_events.identity import Project

__all__ = ["insert_project", "list_projects", "record_audit"]


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


async def record_audit(conn: Connection, event: CloudEvent[dict[str, Any]]) -> bool:
    """Append ``event`` to the audit log; ``False`` if it is already there."""
    status: str = await conn.execute(
        "INSERT INTO audit_log (event_id, type, source, subject, project, occurred_at, data) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb) ON CONFLICT (event_id) DO NOTHING",
        event.id,
        event.type,
        event.source,
        event.subject,
        event.project,
        event.time,
        json.dumps(event.data),
    )
    return status.endswith(" 1")
