"""SQL of ``teams``, ``team_members`` and ``team_project_roles``."""

from __future__ import annotations

from axonal_db import Connection
from axonal_events import uuid7
from axonal_events.principals import RoleName, Team

__all__ = [
    "insert_team",
    "list_teams",
    "set_member",
    "set_org_role",
    "set_project_role",
    "team_id",
]

_TEAMS = """
SELECT t.id, t.org, t.name, t.role,
       COALESCE((SELECT array_agg(p.name ORDER BY p.name) FROM team_members m
                 JOIN principals p ON p.id = m.principal_id WHERE m.team_id = t.id), '{}')
           AS members,
       COALESCE((SELECT jsonb_object_agg(j.name, r.role) FROM team_project_roles r
                 JOIN projects j ON j.id = r.project_id WHERE r.team_id = t.id), '{}')
           AS project_roles
FROM teams t
"""


async def insert_team(conn: Connection, org: str, name: str) -> bool:
    """Whether the team is new (``False``: the name is taken in ``org``)."""
    status: str = await conn.execute(
        "INSERT INTO teams (id, org, name) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        str(uuid7()),
        org,
        name,
    )
    return status.endswith(" 1")


async def team_id(conn: Connection, org: str, name: str) -> str | None:
    found: str | None = await conn.fetchval(
        "SELECT id FROM teams WHERE org = $1 AND name = $2", org, name
    )
    return found


async def list_teams(conn: Connection, org: str, name: str | None = None) -> list[Team]:
    rows = await conn.fetch(
        _TEAMS + "WHERE t.org = $1 AND ($2::text IS NULL OR t.name = $2) ORDER BY t.name",
        org,
        name,
    )
    return [
        Team(
            org=row["org"],
            name=row["name"],
            role=row["role"],
            members=list(row["members"]),
            project_roles=dict(row["project_roles"]),
        )
        for row in rows
    ]


async def set_member(conn: Connection, team: str, principal_id: str, member: bool) -> None:
    if member:
        await conn.execute(
            "INSERT INTO team_members (team_id, principal_id) VALUES ($1, $2) "
            "ON CONFLICT DO NOTHING",
            team,
            principal_id,
        )
        return
    await conn.execute(
        "DELETE FROM team_members WHERE team_id = $1 AND principal_id = $2", team, principal_id
    )


async def set_org_role(conn: Connection, team: str, role: RoleName | None) -> None:
    await conn.execute("UPDATE teams SET role = $2 WHERE id = $1", team, role)


async def set_project_role(
    conn: Connection, team: str, project_id: str, role: RoleName | None
) -> None:
    if role is None:
        await conn.execute(
            "DELETE FROM team_project_roles WHERE team_id = $1 AND project_id = $2",
            team,
            project_id,
        )
        return
    await conn.execute(
        "INSERT INTO team_project_roles (team_id, project_id, role) VALUES ($1, $2, $3) "
        "ON CONFLICT (team_id, project_id) DO UPDATE SET role = EXCLUDED.role",
        team,
        project_id,
        role,
    )
