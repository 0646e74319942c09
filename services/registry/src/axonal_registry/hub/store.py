"""SQL of the ``hub_components`` table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from axonal_db import Connection
from axonal_events.hub import HubComponent, HubComponentInfo
from axonal_registry.domain.hub import LATEST, ComponentVersion

__all__ = ["find", "insert", "list_versions", "locked_digest", "replace", "seed", "versions_of"]

# A built-in's latest is its `latest` file; a pushed component's, its newest push.
_INFO = (
    "owner, name, tag, builtin, digest, description, inputs, outputs, pushed_at, "
    "CASE WHEN builtin THEN tag = 'latest' "
    "ELSE pushed_at = max(pushed_at) OVER (PARTITION BY owner, name) END AS latest"
)


def _info(row: Any) -> HubComponentInfo:
    return HubComponentInfo.model_validate(dict(row))


async def locked_digest(conn: Connection, owner: str, name: str, tag: str) -> str | None:
    """The digest stored at ``owner/name:tag``, its row locked until the transaction ends."""
    digest: str | None = await conn.fetchval(
        "SELECT digest FROM hub_components WHERE owner = $1 AND name = $2 AND tag = $3 FOR UPDATE",
        owner,
        name,
        tag,
    )
    return digest


_COLUMNS = "owner, name, tag, content, digest, description, inputs, outputs, builtin"
_VALUES = "$1, $2, $3, $4, $5, $6, $7, $8, $9"


def _values(version: ComponentVersion, builtin: bool) -> tuple[Any, ...]:
    return (
        version.owner,
        version.name,
        version.tag,
        version.content,
        version.digest,
        version.description,
        list(version.inputs),
        list(version.outputs),
        builtin,
    )


async def insert(conn: Connection, version: ComponentVersion, *, builtin: bool = False) -> bool:
    """Store a new tag; ``False`` when the tag exists already (pushed meanwhile)."""
    done = await conn.fetchval(
        f"INSERT INTO hub_components ({_COLUMNS}) VALUES ({_VALUES}) "  # noqa: S608
        "ON CONFLICT (owner, name, tag) DO NOTHING RETURNING true",
        *_values(version, builtin),
    )
    return bool(done)


async def replace(conn: Connection, version: ComponentVersion, *, builtin: bool = False) -> None:
    """Overwrite a tag's content; its push time becomes now (it is the ``latest`` again)."""
    await conn.execute(
        "UPDATE hub_components SET content = $4, digest = $5, description = $6, inputs = $7, "
        "outputs = $8, builtin = $9, pushed_at = now() "
        "WHERE owner = $1 AND name = $2 AND tag = $3",
        *_values(version, builtin),
    )


async def seed(conn: Connection, versions: Iterable[ComponentVersion]) -> int:
    """Make the built-ins ``versions``: store the new or changed ones, drop those the platform
    no longer ships; how many changed."""
    versions = list(versions)
    dropped = await conn.fetchval(
        "WITH gone AS (DELETE FROM hub_components WHERE builtin "
        "AND NOT (name || ':' || tag = ANY($1::text[])) RETURNING 1) SELECT count(*) FROM gone",
        [f"{v.name}:{v.tag}" for v in versions],
    )
    changed = int(dropped)
    for version in versions:
        stored = await locked_digest(conn, version.owner, version.name, version.tag)
        if stored is None:
            changed += await insert(conn, version, builtin=True)
        elif stored != version.digest:
            await replace(conn, version, builtin=True)
            changed += 1
    return changed


async def find(conn: Connection, owner: str, name: str, tag: str | None) -> HubComponent | None:
    """``owner/name:tag``; ``tag`` ``None`` (or ``latest``): a version tagged ``latest``, else
    the newest push."""
    newest = tag is None or tag == LATEST
    row = await conn.fetchrow(
        f"SELECT {_INFO}, content FROM hub_components WHERE owner = $1 AND name = $2 "  # noqa: S608
        "ORDER BY (tag = $3) DESC, pushed_at DESC LIMIT 1",
        owner,
        name,
        LATEST if newest else tag,
    )
    if row is None or (not newest and row["tag"] != tag):
        return None
    return HubComponent.model_validate(dict(row))


async def list_versions(
    conn: Connection, owner: str | None, name: str | None
) -> list[HubComponentInfo]:
    """Every version, the owner's or the component's only when given, newest first by name."""
    rows = await conn.fetch(
        f"SELECT {_INFO} FROM hub_components "  # noqa: S608
        "WHERE ($1::text IS NULL OR owner = $1) AND ($2::text IS NULL OR name = $2) "
        "ORDER BY builtin, owner, name, pushed_at DESC, tag",
        owner,
        name,
    )
    return [_info(row) for row in rows]


async def versions_of(conn: Connection, owner: str) -> dict[str, list[str]]:
    """The owner's components and their tags (for the hint of an unknown reference)."""
    rows = await conn.fetch(
        "SELECT name, array_agg(tag ORDER BY tag) AS tags FROM hub_components "
        "WHERE owner = $1 GROUP BY name",
        owner,
    )
    return {row["name"]: list(row["tags"]) for row in rows}
