"""SQL of ``principals``, ``tokens``, ``org_roles`` and ``project_roles``."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from axonal_db import Connection
from axonal_events import uuid7
from axonal_events.principals import (
    Member,
    Principal,
    PrincipalInfo,
    PrincipalKind,
    RoleName,
    TokenInfo,
)
from axonal_identity.domain.credentials import NewToken
from axonal_identity.domain.grants import strongest

__all__ = [
    "by_name",
    "insert_principal",
    "insert_token",
    "list_members",
    "list_principals",
    "list_tokens",
    "password_hash_of",
    "principal_of_token",
    "project_id",
    "revoke_token",
    "set_org_role",
    "set_password",
    "set_project_role",
    "with_roles",
]

_PRINCIPAL = "SELECT id, name, kind, email, superuser, created_at FROM principals "
_TOKENS = (
    "SELECT t.id, t.name, p.name AS principal, t.hint, t.created_at, t.expires_at "
    "FROM tokens t JOIN principals p ON p.id = t.principal_id "
)


def _info(row: Any) -> PrincipalInfo:
    return PrincipalInfo.model_validate(dict(row))


async def insert_principal(
    conn: Connection,
    name: str,
    kind: PrincipalKind,
    *,
    email: str | None = None,
    password_hash: str | None = None,
    superuser: bool = False,
) -> PrincipalInfo | None:
    """The new principal; ``None`` when the name is taken."""
    row = await conn.fetchrow(
        "INSERT INTO principals (id, name, kind, email, password_hash, superuser) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING "
        "RETURNING id, name, kind, email, superuser, created_at",
        str(uuid7()),
        name,
        kind,
        email,
        password_hash,
        superuser,
    )
    return _info(row) if row else None


async def by_name(conn: Connection, name: str) -> PrincipalInfo | None:
    row = await conn.fetchrow(_PRINCIPAL + "WHERE name = $1", name)
    return _info(row) if row else None


async def password_hash_of(conn: Connection, name: str) -> tuple[str, str | None] | None:
    """A user's id and password hash."""
    row = await conn.fetchrow(
        "SELECT id, password_hash FROM principals WHERE name = $1 AND kind = 'user'", name
    )
    return (row["id"], row["password_hash"]) if row else None


async def set_password(conn: Connection, principal_id: str, password_hash: str) -> None:
    await conn.execute(
        "UPDATE principals SET password_hash = $2 WHERE id = $1", principal_id, password_hash
    )


async def list_principals(conn: Connection, kind: PrincipalKind | None) -> list[PrincipalInfo]:
    rows = await conn.fetch(_PRINCIPAL + "WHERE $1::text IS NULL OR kind = $1 ORDER BY name", kind)
    return [_info(row) for row in rows]


async def insert_token(
    conn: Connection,
    principal_id: str,
    name: str,
    token: NewToken,
    expires_at: datetime | None,
) -> TokenInfo:
    await conn.execute(
        "INSERT INTO tokens (id, principal_id, name, token_hash, hint, expires_at) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (token_hash) DO NOTHING",
        token.id,
        principal_id,
        name,
        token.token_hash,
        token.hint,
        expires_at,
    )
    # the row with this hash: the new one, or a bootstrap token given again
    row = await conn.fetchrow(_TOKENS + "WHERE t.token_hash = $1", token.token_hash)
    return TokenInfo.model_validate(dict(row or {}))


async def list_tokens(conn: Connection, principal_id: str) -> list[TokenInfo]:
    rows = await conn.fetch(
        _TOKENS + "WHERE t.principal_id = $1 AND t.revoked_at IS NULL "
        "AND (t.expires_at IS NULL OR t.expires_at > now()) ORDER BY t.created_at",
        principal_id,
    )
    return [TokenInfo.model_validate(dict(row)) for row in rows]


async def revoke_token(conn: Connection, principal_id: str, token_id: str) -> bool:
    status: str = await conn.execute(
        "UPDATE tokens SET revoked_at = now() "
        "WHERE principal_id = $1 AND id = $2 AND revoked_at IS NULL",
        principal_id,
        token_id,
    )
    return status.endswith(" 1")


async def principal_of_token(conn: Connection, token_hash: str) -> str | None:
    """The id of the principal a live token acts for."""
    found: str | None = await conn.fetchval(
        "SELECT principal_id FROM tokens WHERE token_hash = $1 AND revoked_at IS NULL "
        "AND (expires_at IS NULL OR expires_at > now())",
        token_hash,
    )
    return found


async def with_roles(conn: Connection, principal_id: str) -> Principal | None:
    """The principal and every role it holds."""
    row = await conn.fetchrow(
        "SELECT id, name, kind, superuser FROM principals WHERE id = $1", principal_id
    )
    if row is None:
        return None
    orgs = await conn.fetch(
        "SELECT org, role FROM org_roles WHERE principal_id = $1 "
        "UNION ALL SELECT t.org, t.role FROM teams t JOIN team_members m ON m.team_id = t.id "
        "WHERE m.principal_id = $1 AND t.role IS NOT NULL",
        principal_id,
    )
    projects = await conn.fetch(
        "SELECT p.owner || '/' || p.name AS slug, r.role FROM project_roles r "
        "JOIN projects p ON p.id = r.project_id WHERE r.principal_id = $1 "
        "UNION ALL SELECT p.owner || '/' || p.name, r.role FROM team_project_roles r "
        "JOIN team_members m ON m.team_id = r.team_id JOIN projects p ON p.id = r.project_id "
        "WHERE m.principal_id = $1",
        principal_id,
    )
    return Principal(
        id=row["id"],
        name=row["name"],
        kind=row["kind"],
        superuser=row["superuser"],
        org_roles=strongest((r["org"], r["role"]) for r in orgs),
        project_roles=strongest((r["slug"], r["role"]) for r in projects),
    )


async def set_org_role(
    conn: Connection, org: str, principal_id: str, role: RoleName | None
) -> None:
    if role is None:
        await conn.execute(
            "DELETE FROM org_roles WHERE org = $1 AND principal_id = $2", org, principal_id
        )
        return
    await conn.execute(
        "INSERT INTO org_roles (org, principal_id, role) VALUES ($1, $2, $3) "
        "ON CONFLICT (org, principal_id) DO UPDATE SET role = EXCLUDED.role",
        org,
        principal_id,
        role,
    )


async def set_project_role(
    conn: Connection, project_id: str, principal_id: str, role: RoleName | None
) -> None:
    if role is None:
        await conn.execute(
            "DELETE FROM project_roles WHERE project_id = $1 AND principal_id = $2",
            project_id,
            principal_id,
        )
        return
    await conn.execute(
        "INSERT INTO project_roles (project_id, principal_id, role) VALUES ($1, $2, $3) "
        "ON CONFLICT (project_id, principal_id) DO UPDATE SET role = EXCLUDED.role",
        project_id,
        principal_id,
        role,
    )


async def list_members(conn: Connection, org: str, project_id: str | None) -> list[Member]:
    """Grants in ``org`` (and, with ``project_id``, that project's own grants after them)."""
    rows = await conn.fetch(
        "SELECT p.name AS principal, p.kind, r.role, NULL AS project FROM org_roles r "
        "JOIN principals p ON p.id = r.principal_id WHERE r.org = $1 "
        "UNION ALL SELECT p.name, p.kind, r.role, j.name FROM project_roles r "
        "JOIN principals p ON p.id = r.principal_id JOIN projects j ON j.id = r.project_id "
        "WHERE r.project_id = $2 ORDER BY 4 NULLS FIRST, 1",
        org,
        project_id,
    )
    return [Member.model_validate(dict(row)) for row in rows]


async def project_id(conn: Connection, owner: str, name: str) -> str | None:
    found: str | None = await conn.fetchval(
        "SELECT id FROM projects WHERE owner = $1 AND name = $2", owner, name
    )
    return found
