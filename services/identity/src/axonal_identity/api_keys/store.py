"""SQL of the ``api_keys`` table (and the project a key belongs to)."""

from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.api_keys import ApiKeyInfo, KeyProject
from axonal_identity.domain.api_keys import NewKey

__all__ = ["insert_key", "key_by_public", "list_keys", "project_by_slug", "revoke_key"]

# A key acts with its owner's role in the project. A key without an owner (made with the
# operator's token, or before keys had owners) acts as ``admin``: a Langfuse key's full access.
_SELECT = (
    "SELECT k.id, k.public_key, k.secret_hint, k.note, k.created_at, k.secret_hash, "
    "p.id AS project_id, p.owner, p.name, o.name AS key_owner, "
    "COALESCE(CASE WHEN o.superuser THEN 'owner' END, pr.role, orr.role, "
    "CASE WHEN k.owner_id IS NULL THEN 'admin' END, 'none') AS role "
    "FROM api_keys k JOIN projects p ON p.id = k.project_id "
    "LEFT JOIN principals o ON o.id = k.owner_id "
    "LEFT JOIN project_roles pr ON pr.project_id = k.project_id AND pr.principal_id = k.owner_id "
    "LEFT JOIN org_roles orr ON orr.org = p.owner AND orr.principal_id = k.owner_id "
)


def _info(row: Any) -> ApiKeyInfo:
    return ApiKeyInfo(
        id=row["id"],
        public_key=row["public_key"],
        secret_hint=row["secret_hint"],
        note=row["note"],
        created_at=row["created_at"],
        project=KeyProject(id=row["project_id"], owner=row["owner"], name=row["name"]),
        owner=row["key_owner"],
        role=row["role"],
    )


async def project_by_slug(conn: Connection, owner: str, name: str) -> KeyProject | None:
    row = await conn.fetchrow(
        "SELECT id, owner, name FROM projects WHERE owner = $1 AND name = $2", owner, name
    )
    return KeyProject(id=row["id"], owner=row["owner"], name=row["name"]) if row else None


async def insert_key(
    conn: Connection, project: KeyProject, key: NewKey, note: str | None, owner_id: str | None
) -> ApiKeyInfo:
    await conn.execute(
        "INSERT INTO api_keys (id, project_id, public_key, secret_hash, secret_hint, note, "
        "owner_id) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        key.id,
        project.id,
        key.public_key,
        key.secret_hash,
        key.secret_hint,
        note,
        owner_id,
    )
    row = await conn.fetchrow(_SELECT + "WHERE k.id = $1", key.id)
    return _info(row)


async def key_by_public(conn: Connection, public_key: str) -> tuple[ApiKeyInfo, str] | None:
    """The live key named ``public_key`` and its secret's hash."""
    row = await conn.fetchrow(
        _SELECT + "WHERE k.public_key = $1 AND k.revoked_at IS NULL", public_key
    )
    return (_info(row), row["secret_hash"]) if row else None


async def list_keys(conn: Connection, project_id: str) -> list[ApiKeyInfo]:
    rows = await conn.fetch(
        _SELECT + "WHERE k.project_id = $1 AND k.revoked_at IS NULL ORDER BY k.created_at",
        project_id,
    )
    return [_info(row) for row in rows]


async def revoke_key(conn: Connection, project_id: str, public_key: str) -> bool:
    status: str = await conn.execute(
        "UPDATE api_keys SET revoked_at = now() "
        "WHERE project_id = $1 AND public_key = $2 AND revoked_at IS NULL",
        project_id,
        public_key,
    )
    return status.endswith(" 1")
