"""SQL of the ``score_configs`` table."""

from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.score_configs import ScoreConfig

__all__ = ["count", "find", "find_many", "insert", "page", "update"]

_COLUMNS = (
    "id, project_id, name, data_type, is_archived, min_value, max_value, categories, "
    "description, created_at, updated_at"
)


def _config(row: Any) -> ScoreConfig:
    return ScoreConfig.model_validate(dict(row))


async def insert(conn: Connection, config: ScoreConfig) -> None:
    await conn.execute(
        f"INSERT INTO score_configs ({_COLUMNS}) "  # noqa: S608 (fixed column list)
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
        *_values(config),
    )


def _values(config: ScoreConfig) -> tuple[Any, ...]:
    categories = (
        [c.model_dump() for c in config.categories] if config.categories is not None else None
    )
    return (
        config.id,
        config.project_id,
        config.name,
        config.data_type.value,
        config.is_archived,
        config.min_value,
        config.max_value,
        categories,
        config.description,
        config.created_at,
        config.updated_at,
    )


async def update(conn: Connection, config: ScoreConfig) -> None:
    """Store every field of ``config`` but its id, project and creation time."""
    await conn.execute(
        "UPDATE score_configs SET name = $3, data_type = $4, is_archived = $5, min_value = $6, "
        "max_value = $7, categories = $8, description = $9, updated_at = $10 "
        "WHERE id = $1 AND project_id = $2",
        *(v for i, v in enumerate(_values(config)) if i != 9),
    )


async def find(
    conn: Connection, project_id: str, config_id: str, *, lock: bool = False
) -> ScoreConfig | None:
    row = await conn.fetchrow(
        f"SELECT {_COLUMNS} FROM score_configs "  # noqa: S608 (fixed column list)
        "WHERE project_id = $1 AND id = $2" + (" FOR UPDATE" if lock else ""),
        project_id,
        config_id,
    )
    return _config(row) if row else None


async def find_many(conn: Connection, project_id: str, ids: list[str]) -> list[ScoreConfig]:
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM score_configs "  # noqa: S608 (fixed column list)
        "WHERE project_id = $1 AND id = ANY($2::text[]) ORDER BY created_at",
        project_id,
        ids,
    )
    return [_config(row) for row in rows]


async def page(conn: Connection, project_id: str, page: int, limit: int) -> list[ScoreConfig]:
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM score_configs WHERE project_id = $1 "  # noqa: S608
        "ORDER BY created_at DESC, id LIMIT $2 OFFSET $3",
        project_id,
        limit,
        (page - 1) * limit,
    )
    return [_config(row) for row in rows]


async def count(conn: Connection, project_id: str) -> int:
    found = await conn.fetchval(
        "SELECT count(*) FROM score_configs WHERE project_id = $1", project_id
    )
    return int(found or 0)
