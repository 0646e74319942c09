"""SQL of the ``prompts``, ``prompt_labels`` and ``prompt_protected_labels`` tables."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, NamedTuple

from axonal_db import Connection
from axonal_events.prompts import LabelMove, ListPrompts, PromptMeta, PromptVersion

__all__ = [
    "Found",
    "Latest",
    "apply_moves",
    "count_names",
    "delete_versions",
    "embedding",
    "find",
    "insert_version",
    "label_map",
    "latest",
    "list_meta",
    "lock_name",
    "protected_labels",
    "set_protected_labels",
    "set_tags",
    "versions",
]

_COLUMNS = (
    "p.id::text AS id, p.project_id, p.name, p.version, p.type, p.prompt, p.config, p.tags, "
    "p.commit_message, p.created_by, p.created_at, p.updated_at, p.embeds, "
    "ARRAY(SELECT l.label FROM prompt_labels l WHERE l.project_id = p.project_id "
    "AND l.name = p.name AND l.version = p.version ORDER BY l.label) AS labels"
)


class Found(NamedTuple):
    """A stored version, and whether it embeds other prompts."""

    prompt: PromptVersion
    embeds: bool


class Latest(NamedTuple):
    version: int
    type: str
    tags: list[str]


def _found(fields: dict[str, Any]) -> Found:
    embeds = fields.pop("embeds")
    return Found(PromptVersion.model_validate(fields), embeds)


async def lock_name(conn: Connection, project_id: str, name: str) -> None:
    """Serialise the writes to one prompt name until the transaction ends."""
    await conn.execute("SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", project_id, name)


async def latest(conn: Connection, project_id: str, name: str) -> Latest | None:
    row = await conn.fetchrow(
        "SELECT version, type, tags FROM prompts WHERE project_id = $1 AND name = $2 "
        "ORDER BY version DESC LIMIT 1",
        project_id,
        name,
    )
    return Latest(row["version"], row["type"], list(row["tags"])) if row else None


async def insert_version(conn: Connection, prompt: PromptVersion, embeds: bool) -> None:
    await conn.execute(
        "INSERT INTO prompts (id, project_id, name, version, type, prompt, config, tags, "
        "commit_message, created_by, embeds, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12)",
        prompt.id,
        prompt.project_id,
        prompt.name,
        prompt.version,
        prompt.type,
        prompt.prompt,
        prompt.config,
        prompt.tags,
        prompt.commit_message,
        prompt.created_by,
        embeds,
        prompt.created_at,
    )


async def set_tags(conn: Connection, project_id: str, name: str, tags: list[str]) -> None:
    """Tags are the prompt's: the same on every version."""
    await conn.execute(
        "UPDATE prompts SET tags = $3, updated_at = now() "
        "WHERE project_id = $1 AND name = $2 AND tags <> $3",
        project_id,
        name,
        tags,
    )


async def label_map(conn: Connection, project_id: str, name: str) -> dict[str, int]:
    """Each label of the prompt and the version it is on."""
    rows = await conn.fetch(
        "SELECT label, version FROM prompt_labels WHERE project_id = $1 AND name = $2",
        project_id,
        name,
    )
    return {row["label"]: row["version"] for row in rows}


async def apply_moves(
    conn: Connection, project_id: str, name: str, moves: Iterable[LabelMove]
) -> None:
    """Put each moved label on its new version (or remove it); touch the versions changed."""
    moves = list(moves)
    if not moves:
        return
    gone = [m.label for m in moves if m.to_version is None]
    placed = [m for m in moves if m.to_version is not None]
    await conn.execute(
        "DELETE FROM prompt_labels WHERE project_id = $1 AND name = $2 AND label = ANY($3)",
        project_id,
        name,
        gone,
    )
    await conn.execute(
        "INSERT INTO prompt_labels (project_id, name, label, version) "
        "SELECT $1, $2, label, version FROM unnest($3::text[], $4::int[]) AS m(label, version) "
        "ON CONFLICT (project_id, name, label) DO UPDATE SET version = EXCLUDED.version",
        project_id,
        name,
        [m.label for m in placed],
        [m.to_version for m in placed],
    )
    touched = {v for m in moves for v in (m.from_version, m.to_version) if v is not None}
    await conn.execute(
        "UPDATE prompts SET updated_at = now() "
        "WHERE project_id = $1 AND name = $2 AND version = ANY($3)",
        project_id,
        name,
        list(touched),
    )


async def find(
    conn: Connection, project_id: str, name: str, *, version: int | None, label: str | None
) -> Found | None:
    """The version by number, else the one with ``label``: one indexed query."""
    if version is not None:
        row = await conn.fetchrow(
            f"SELECT {_COLUMNS} FROM prompts p "  # noqa: S608 - constant SQL
            "WHERE p.project_id = $1 AND p.name = $2 AND p.version = $3",
            project_id,
            name,
            version,
        )
    else:
        row = await conn.fetchrow(
            f"SELECT {_COLUMNS} FROM prompt_labels k JOIN prompts p "  # noqa: S608 - constant SQL
            "ON p.project_id = k.project_id AND p.name = k.name AND p.version = k.version "
            "WHERE k.project_id = $1 AND k.name = $2 AND k.label = $3",
            project_id,
            name,
            label,
        )
    return _found(dict(row)) if row else None


async def versions(conn: Connection, project_id: str, name: str) -> list[PromptVersion]:
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM prompts p WHERE p.project_id = $1 AND p.name = $2 "  # noqa: S608 - constant SQL
        "ORDER BY p.version DESC",
        project_id,
        name,
    )
    return [_found(dict(row)).prompt for row in rows]


_KEPT = (
    "WITH kept AS (SELECT p.* FROM prompts p WHERE p.project_id = $1 "
    "AND ($2::text IS NULL OR p.name = $2) "
    "AND ($3::int IS NULL OR p.version = $3) "
    "AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM prompt_labels l "
    "WHERE l.project_id = p.project_id AND l.name = p.name AND l.version = p.version "
    "AND l.label = $4)) "
    "AND ($5::text IS NULL OR $5 = ANY(p.tags)) "
    "AND ($6::timestamptz IS NULL OR p.updated_at >= $6) "
    "AND ($7::timestamptz IS NULL OR p.updated_at < $7)) "
)


def _filters(query: ListPrompts) -> tuple[Any, ...]:
    return (
        query.project_id,
        query.name,
        query.version,
        query.label,
        query.tag,
        query.from_updated_at,
        query.to_updated_at,
    )


async def list_meta(conn: Connection, query: ListPrompts) -> list[PromptMeta]:
    """A page of prompt names with the versions and labels the filters keep, by name."""
    rows = await conn.fetch(
        _KEPT + "SELECT n.name, last.type, last.config AS last_config, last.tags, "  # noqa: S608 - constant SQL
        "(SELECT array_agg(k.version ORDER BY k.version) FROM kept k WHERE k.name = n.name) "
        "AS versions, "
        "(SELECT max(k.updated_at) FROM kept k WHERE k.name = n.name) AS last_updated_at, "
        "ARRAY(SELECT DISTINCT l.label FROM kept k JOIN prompt_labels l "
        "ON l.project_id = k.project_id AND l.name = k.name AND l.version = k.version "
        "WHERE k.name = n.name ORDER BY l.label) AS labels "
        "FROM (SELECT DISTINCT name FROM kept ORDER BY name LIMIT $8 OFFSET $9) n "
        "CROSS JOIN LATERAL (SELECT k.type, k.config, k.tags FROM kept k "
        "WHERE k.name = n.name ORDER BY k.version DESC LIMIT 1) last ORDER BY n.name",
        *_filters(query),
        query.limit,
        (query.page - 1) * query.limit,
    )
    return [PromptMeta.model_validate(dict(row)) for row in rows]


async def count_names(conn: Connection, query: ListPrompts) -> int:
    total: int = await conn.fetchval(
        _KEPT + "SELECT count(DISTINCT name) FROM kept",  # noqa: S608 - constant SQL
        *_filters(query),
    )
    return total


async def delete_versions(conn: Connection, project_id: str, name: str, doomed: list[int]) -> None:
    await conn.execute(
        "DELETE FROM prompts WHERE project_id = $1 AND name = $2 AND version = ANY($3)",
        project_id,
        name,
        doomed,
    )


async def embedding(conn: Connection, project_id: str) -> list[PromptVersion]:
    """The project's versions that embed other prompts (few: a partial index finds them)."""
    rows = await conn.fetch(
        f"SELECT {_COLUMNS} FROM prompts p WHERE p.project_id = $1 AND p.embeds",  # noqa: S608 - constant SQL
        project_id,
    )
    return [_found(dict(row)).prompt for row in rows]


async def protected_labels(conn: Connection, project_id: str) -> list[str]:
    rows = await conn.fetch(
        "SELECT label FROM prompt_protected_labels WHERE project_id = $1 ORDER BY label",
        project_id,
    )
    return [row["label"] for row in rows]


async def set_protected_labels(conn: Connection, project_id: str, labels: list[str]) -> None:
    await conn.execute("DELETE FROM prompt_protected_labels WHERE project_id = $1", project_id)
    await conn.execute(
        "INSERT INTO prompt_protected_labels (project_id, label) SELECT $1, unnest($2::text[])",
        project_id,
        labels,
    )
