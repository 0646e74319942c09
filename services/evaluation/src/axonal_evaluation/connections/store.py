"""SQL of the ``llm_connections`` table."""

from __future__ import annotations

from typing import Any, NamedTuple

from axonal_db import Connection
from axonal_events.evaluators import LlmConnection

__all__ = ["Secret", "count", "delete", "page", "secret", "upsert"]

_COLUMNS = (
    "id, project_id, provider, adapter, display_secret_key, base_url, custom_models, "
    "with_default_models, extra_header_keys, config, created_at, updated_at"
)


class Secret(NamedTuple):
    """What a judge call needs of a connection, still encrypted."""

    adapter: str
    secret_encrypted: str
    base_url: str | None
    headers_encrypted: str | None


def _connection(row: Any) -> LlmConnection:
    return LlmConnection.model_validate(dict(row))


async def upsert(conn: Connection, fields: dict[str, Any]) -> LlmConnection:
    row = await conn.fetchrow(
        "INSERT INTO llm_connections (id, project_id, provider, adapter, secret_encrypted, "  # noqa: S608
        "display_secret_key, base_url, custom_models, with_default_models, headers_encrypted, "
        "extra_header_keys, config) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) "
        "ON CONFLICT (project_id, provider) DO UPDATE SET adapter = EXCLUDED.adapter, "
        "secret_encrypted = EXCLUDED.secret_encrypted, "
        "display_secret_key = EXCLUDED.display_secret_key, base_url = EXCLUDED.base_url, "
        "custom_models = EXCLUDED.custom_models, "
        "with_default_models = EXCLUDED.with_default_models, "
        "headers_encrypted = EXCLUDED.headers_encrypted, "
        "extra_header_keys = EXCLUDED.extra_header_keys, config = EXCLUDED.config, "
        f"updated_at = now() RETURNING {_COLUMNS}",
        fields["id"],
        fields["project_id"],
        fields["provider"],
        fields["adapter"],
        fields["secret_encrypted"],
        fields["display_secret_key"],
        fields["base_url"],
        fields["custom_models"],
        fields["with_default_models"],
        fields["headers_encrypted"],
        fields["extra_header_keys"],
        fields["config"],
    )
    return _connection(row)


async def page(conn: Connection, project_id: str, page: int, limit: int) -> list[LlmConnection]:
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM llm_connections WHERE project_id = $1 "  # noqa: S608
        "ORDER BY provider LIMIT $2 OFFSET $3",
        project_id,
        limit,
        (page - 1) * limit,
    )
    return [_connection(r) for r in rows]


async def count(conn: Connection, project_id: str) -> int:
    total = await conn.fetchval(
        "SELECT count(*) FROM llm_connections WHERE project_id = $1", project_id
    )
    return int(total)


async def delete(conn: Connection, project_id: str, connection_id: str) -> bool:
    """Delete a connection and pause the rules that call it (they cannot run without it)."""
    provider = await conn.fetchval(
        "DELETE FROM llm_connections WHERE project_id = $1 AND id = $2 RETURNING provider",
        project_id,
        connection_id,
    )
    if provider is None:
        return False
    await conn.execute(
        "UPDATE eval_rules SET active = false, updated_at = now() "
        "WHERE project_id = $1 AND connection = $2 AND active",
        project_id,
        provider,
    )
    return True


async def secret(conn: Connection, project_id: str, provider: str) -> Secret | None:
    row = await conn.fetchrow(
        "SELECT adapter, secret_encrypted, base_url, headers_encrypted FROM llm_connections "
        "WHERE project_id = $1 AND provider = $2",
        project_id,
        provider,
    )
    return Secret(*row) if row else None
