"""SQL of the ``projects`` table."""

from __future__ import annotations

from axonal_db import Connection
from axonal_events import ProjectCreated
from axonal_events.identity import Project

__all__ = ["found_organization", "insert_project", "list_projects"]


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
