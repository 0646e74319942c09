"""SQL of the ``projects`` table."""

from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events import ProjectCreated
from axonal_events.identity import Project
from axonal_events.retention import ProjectRetention, RetentionPolicy

__all__ = [
    "delete_project",
    "found_organization",
    "insert_project",
    "list_projects",
    "retention",
    "set_retention",
]

_RETENTION = "id AS project_id, owner, name, retention, retention_updated_at AS updated_at"


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


async def found_organization(conn: Connection, org: str, creator: str) -> None:
    """Make ``creator`` the owner of ``org`` if nobody holds a role there yet."""
    await conn.execute(
        "INSERT INTO org_roles (org, principal_id, role) SELECT $1, id, 'owner' "
        "FROM principals WHERE name = $2 AND NOT superuser "
        "AND NOT EXISTS (SELECT 1 FROM org_roles WHERE org = $1) ON CONFLICT DO NOTHING",
        org,
        creator,
    )


async def delete_project(conn: Connection, owner: str, name: str) -> str | None:
    """Delete the project (its API keys with it); its id, ``None`` when there is none."""
    found: str | None = await conn.fetchval(
        "DELETE FROM projects WHERE owner = $1 AND name = $2 RETURNING id", owner, name
    )
    return found


def _retention(row: Any) -> ProjectRetention:
    policy = RetentionPolicy.model_validate(row["retention"])
    return ProjectRetention(
        project_id=row["project_id"],
        owner=row["owner"],
        name=row["name"],
        retention=policy,
        updated_at=row["updated_at"],
    )


async def retention(conn: Connection, owner: str, name: str) -> ProjectRetention | None:
    row = await conn.fetchrow(
        f"SELECT {_RETENTION} FROM projects WHERE owner = $1 AND name = $2",  # noqa: S608
        owner,
        name,
    )
    return _retention(row) if row else None


async def set_retention(
    conn: Connection, owner: str, name: str, policy: RetentionPolicy
) -> ProjectRetention | None:
    row = await conn.fetchrow(
        "UPDATE projects SET retention = $3, retention_updated_at = now() "  # noqa: S608
        f"WHERE owner = $1 AND name = $2 RETURNING {_RETENTION}",
        owner,
        name,
        policy.model_dump(exclude_none=True),
    )
    return _retention(row) if row else None
