"""SQL of ``models``, ``model_versions``, ``model_aliases`` and ``alias_requests``."""

from __future__ import annotations

import asyncpg

from axonal_db import Connection
from axonal_events.model_registry import (
    AliasRequest,
    CreateModelVersion,
    ModelVersion,
    RegisteredModel,
)

__all__ = [
    "add_request",
    "add_version",
    "aliases_of",
    "approve_request",
    "delete_aliases_of",
    "ensure_model",
    "get_model",
    "get_request",
    "get_version",
    "insert_model",
    "list_models",
    "list_requests",
    "list_versions",
    "lock_model",
    "pending_request",
    "set_alias",
    "set_archived",
    "set_protected",
    "versions_by_sha256",
]

_MODEL = (
    "SELECT m.project, m.name, m.description, m.protected_aliases, m.created_at, "
    "(SELECT max(version) FROM model_versions v WHERE v.project = m.project "
    "AND v.model = m.name) AS latest_version, "
    "COALESCE((SELECT jsonb_object_agg(a.alias, a.version) FROM model_aliases a "
    "WHERE a.project = m.project AND a.model = m.name), '{}') AS aliases FROM models m"
)
_VERSION = (
    "SELECT v.project, v.model, v.version, v.run_uuid, v.artifact, v.sha256, v.path, v.size, "
    "v.description, v.archived, v.created_at, COALESCE((SELECT array_agg(a.alias ORDER BY "
    "a.alias) FROM model_aliases a WHERE a.project = v.project AND a.model = v.model "
    "AND a.version = v.version), '{}') AS aliases FROM model_versions v"
)
_REQUEST = (
    "SELECT id, project, model, alias, version, requested_by, approved_by, created_at, "
    "approved_at FROM alias_requests"
)


async def ensure_model(conn: Connection, project: str, name: str) -> None:
    """Create the model with no description when it does not exist yet."""
    await conn.execute(
        "INSERT INTO models (project, name) VALUES ($1, $2) ON CONFLICT DO NOTHING",
        project,
        name,
    )


async def insert_model(
    conn: Connection, project: str, name: str, description: str | None, protected: list[str]
) -> bool:
    """Insert the model; ``False`` when the project has one of that name."""
    status: str = await conn.execute(
        "INSERT INTO models (project, name, description, protected_aliases) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
        project,
        name,
        description,
        protected,
    )
    return status.endswith(" 1")


async def lock_model(conn: Connection, project: str, name: str) -> RegisteredModel | None:
    """The model, its row locked until the transaction ends (changes of a model queue)."""
    found = await conn.fetchval(
        "SELECT 1 FROM models WHERE project = $1 AND name = $2 FOR UPDATE", project, name
    )
    return await get_model(conn, project, name) if found else None


async def get_model(conn: Connection, project: str, name: str) -> RegisteredModel | None:
    row = await conn.fetchrow(f"{_MODEL} WHERE m.project = $1 AND m.name = $2", project, name)
    return _model(row) if row else None


async def list_models(conn: Connection, project: str) -> list[RegisteredModel]:
    rows = await conn.fetch(f"{_MODEL} WHERE m.project = $1 ORDER BY m.name", project)
    return [_model(row) for row in rows]


async def set_protected(conn: Connection, project: str, name: str, aliases: list[str]) -> None:
    await conn.execute(
        "UPDATE models SET protected_aliases = $3 WHERE project = $1 AND name = $2",
        project,
        name,
        aliases,
    )


async def versions_by_sha256(conn: Connection, project: str, model: str) -> dict[str, int]:
    rows = await conn.fetch(
        "SELECT sha256, version FROM model_versions WHERE project = $1 AND model = $2",
        project,
        model,
    )
    return {row["sha256"]: row["version"] for row in rows}


async def add_version(conn: Connection, request: CreateModelVersion, version: int) -> None:
    await conn.execute(
        "INSERT INTO model_versions (project, model, version, run_uuid, artifact, sha256, path, "
        "size, description) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        request.project,
        request.model,
        version,
        request.run_uuid,
        request.artifact,
        request.sha256,
        request.path,
        request.size,
        request.description,
    )


async def get_version(
    conn: Connection, project: str, model: str, version: int
) -> ModelVersion | None:
    row = await conn.fetchrow(
        f"{_VERSION} WHERE v.project = $1 AND v.model = $2 AND v.version = $3",
        project,
        model,
        version,
    )
    return ModelVersion.model_validate(dict(row)) if row else None


async def list_versions(conn: Connection, project: str, model: str) -> list[ModelVersion]:
    rows = await conn.fetch(
        f"{_VERSION} WHERE v.project = $1 AND v.model = $2 ORDER BY v.version DESC",
        project,
        model,
    )
    return [ModelVersion.model_validate(dict(row)) for row in rows]


async def aliases_of(conn: Connection, project: str, model: str) -> dict[str, int]:
    rows = await conn.fetch(
        "SELECT alias, version FROM model_aliases WHERE project = $1 AND model = $2",
        project,
        model,
    )
    return {row["alias"]: row["version"] for row in rows}


async def set_alias(conn: Connection, project: str, model: str, alias: str, version: int) -> None:
    await conn.execute(
        "INSERT INTO model_aliases (project, model, alias, version) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT (project, model, alias) DO UPDATE SET version = EXCLUDED.version, "
        "moved_at = now()",
        project,
        model,
        alias,
        version,
    )


async def delete_aliases_of(conn: Connection, project: str, model: str, version: int) -> None:
    await conn.execute(
        "DELETE FROM model_aliases WHERE project = $1 AND model = $2 AND version = $3",
        project,
        model,
        version,
    )


async def set_archived(conn: Connection, project: str, model: str, version: int) -> None:
    await conn.execute(
        "UPDATE model_versions SET archived = true WHERE project = $1 AND model = $2 "
        "AND version = $3",
        project,
        model,
        version,
    )


async def add_request(conn: Connection, request: AliasRequest) -> None:
    await conn.execute(
        "INSERT INTO alias_requests (id, project, model, alias, version, requested_by, "
        "created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)",
        request.id,
        request.project,
        request.model,
        request.alias,
        request.version,
        request.requested_by,
        request.created_at,
    )


async def get_request(
    conn: Connection, project: str, model: str, request_id: str
) -> AliasRequest | None:
    row = await conn.fetchrow(
        f"{_REQUEST} WHERE project = $1 AND model = $2 AND id = $3",
        project,
        model,
        request_id,
    )
    return AliasRequest.model_validate(dict(row)) if row else None


async def pending_request(
    conn: Connection, project: str, model: str, alias: str, version: int
) -> AliasRequest | None:
    """The request still waiting to move ``alias`` to ``version``, if there is one."""
    row = await conn.fetchrow(
        f"{_REQUEST} WHERE project = $1 AND model = $2 AND alias = $3 AND version = $4 "
        "AND approved_at IS NULL ORDER BY created_at LIMIT 1",
        project,
        model,
        alias,
        version,
    )
    return AliasRequest.model_validate(dict(row)) if row else None


async def approve_request(conn: Connection, request_id: str, approved_by: str | None) -> None:
    await conn.execute(
        "UPDATE alias_requests SET approved_by = $2, approved_at = now() WHERE id = $1",
        request_id,
        approved_by,
    )


async def list_requests(
    conn: Connection, project: str, model: str, *, pending_only: bool
) -> list[AliasRequest]:
    rows = await conn.fetch(
        f"{_REQUEST} WHERE project = $1 AND model = $2 "
        "AND (NOT $3 OR approved_at IS NULL) ORDER BY created_at",
        project,
        model,
        pending_only,
    )
    return [AliasRequest.model_validate(dict(row)) for row in rows]


def _model(row: asyncpg.Record) -> RegisteredModel:
    values = dict(row)
    values["protected_aliases"] = list(values["protected_aliases"])
    return RegisteredModel.model_validate(values)
