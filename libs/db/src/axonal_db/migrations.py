"""Per-service schema migrations: numbered SQL files applied once, in order, under a lock.

Each source is a folder of ``NNNN_description.sql`` files (a service's own, or one shipped by
a library such as the bus outbox tables). :func:`migrate` applies the pending files of every
source, in the order the sources are given, into one schema, each file in its own transaction
with ``search_path`` set to that schema, and records it in ``<schema>.schema_migrations``.
Statements that cannot run inside a transaction (``CREATE INDEX CONCURRENTLY``) are not
supported.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable

import asyncpg

from axonal_db.errors import (
    InvalidMigrationError,
    MigrationChecksumError,
    MigrationMissingError,
    MigrationOrderError,
)
from axonal_db.pool import Connection, connect, quote_schema

__all__ = ["Migration", "MigrationSource", "checksum", "load_source", "migrate", "parse_filename"]

log = logging.getLogger(__name__)

_FILE_NAME = re.compile(r"(?P<version>\d{4})_(?P<name>[a-z0-9][a-z0-9_]*)\.sql")


@dataclass(frozen=True)
class MigrationSource:
    """A folder of migrations recorded under ``name`` (a ``Path`` or ``importlib.resources``)."""

    name: str
    directory: Traversable


@dataclass(frozen=True)
class Migration:
    """One migration file, read and checksummed."""

    source: str
    version: int
    name: str
    path: str
    checksum: str
    sql: str = field(repr=False)


def parse_filename(filename: str) -> tuple[int, str]:
    """``"0001_create_users.sql"`` -> ``(1, "create_users")``; anything else is rejected."""
    match = _FILE_NAME.fullmatch(filename)
    if match is None:
        raise InvalidMigrationError(
            f"invalid migration file name {filename!r}: expected NNNN_description.sql "
            "(four digits, then lower-case letters, digits and underscores)"
        )
    return int(match["version"]), match["name"]


def checksum(content: bytes) -> str:
    """SHA-256 of a migration file's bytes, as hex."""
    return hashlib.sha256(content).hexdigest()


def load_source(source: MigrationSource) -> list[Migration]:
    """Read every ``*.sql`` file of ``source`` (other files are ignored), sorted by version."""
    if not source.name:
        raise InvalidMigrationError("a migration source needs a name")
    if not source.directory.is_dir():
        raise InvalidMigrationError(f"migration folder {source.directory} is not a directory")
    found: dict[int, Migration] = {}
    for entry in source.directory.iterdir():
        if entry.name.startswith(".") or not entry.name.lower().endswith(".sql"):
            continue
        try:
            version, name = parse_filename(entry.name)
        except InvalidMigrationError as exc:
            raise InvalidMigrationError(f"{exc} (in {source.directory})") from None
        if version in found:
            raise InvalidMigrationError(
                f"duplicate migration version {version:04d} in {source.directory}: "
                f"{found[version].path} and {entry}"
            )
        content = entry.read_bytes()
        found[version] = Migration(
            source.name, version, name, str(entry), checksum(content), content.decode()
        )
    return [found[version] for version in sorted(found)]


def _lock_key(schema: str) -> int:
    """A signed 64-bit advisory lock key derived from the schema name."""
    digest = hashlib.sha256(f"axonal_db.migrate:{schema}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def _pending(
    plan: list[Migration],
    sources: set[str],
    applied: dict[tuple[str, int], asyncpg.Record],
    schema: str,
) -> list[Migration]:
    """Check applied migrations against their files; return the ones still to apply."""
    files = {(m.source, m.version): m for m in plan}
    for (source, version), row in sorted(applied.items()):
        migration = files.get((source, version))
        if migration is None:
            if source in sources:
                raise MigrationMissingError(
                    f"migration {version:04d}_{row['name']}.sql of source {source!r} is recorded "
                    f"as applied to schema {schema!r} but its file is missing"
                )
            continue
        if migration.checksum != row["checksum"]:
            raise MigrationChecksumError(
                migration.path, schema, row["checksum"], migration.checksum
            )
    pending = [m for m in plan if (m.source, m.version) not in applied]
    for migration in pending:
        newer = [v for (s, v) in applied if s == migration.source and v > migration.version]
        if newer:
            raise MigrationOrderError(
                f"migration {migration.path} is new but {migration.source!r} version "
                f"{max(newer):04d} is already applied to schema {schema!r}: renumber it"
            )
    return pending


async def _migrate(
    conn: Connection, schema: str, sources: set[str], plan: list[Migration]
) -> list[Migration]:
    table = f"{quote_schema(schema)}.schema_migrations"
    key = _lock_key(schema)
    await conn.execute("SELECT pg_advisory_lock($1)", key)
    try:
        await conn.execute(
            f"CREATE SCHEMA IF NOT EXISTS {quote_schema(schema)};"
            f"CREATE TABLE IF NOT EXISTS {table} ("
            " source text NOT NULL, version integer NOT NULL, name text NOT NULL,"
            " checksum text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now(),"
            " PRIMARY KEY (source, version))"
        )
        rows = await conn.fetch(f"SELECT source, version, name, checksum FROM {table}")  # noqa: S608
        applied = {(row["source"], row["version"]): row for row in rows}
        pending = _pending(plan, sources, applied, schema)
        for migration in pending:
            async with conn.transaction():
                await conn.execute(
                    "SELECT set_config('search_path', $1, true)", quote_schema(schema)
                )
                await conn.execute(migration.sql)
                await conn.execute(
                    f"INSERT INTO {table} (source, version, name, checksum)"  # noqa: S608
                    " VALUES ($1, $2, $3, $4)",
                    migration.source,
                    migration.version,
                    migration.name,
                    migration.checksum,
                )
            log.info("applied migration %s to schema %s", migration.path, schema)
        return pending
    finally:
        # A broken connection has lost the lock already; don't hide the original error.
        with contextlib.suppress(asyncpg.PostgresError, asyncpg.InterfaceError, OSError):
            await conn.execute("SELECT pg_advisory_unlock($1)", key)


async def migrate(
    db: asyncpg.Pool | Connection | str, *, schema: str, sources: Sequence[MigrationSource]
) -> list[Migration]:
    """Apply the pending migrations of ``sources`` to ``schema``; return those applied.

    Replicas may call this at the same time: a PostgreSQL advisory lock keyed by the schema
    makes the others wait, then find nothing to do. Every applied migration is checked
    against its file first (:class:`MigrationChecksumError`, :class:`MigrationMissingError`)
    so that nothing is applied when the history does not match. Records of sources not
    passed here are left alone.
    """
    quote_schema(schema)
    names = [source.name for source in sources]
    if len(set(names)) != len(names):
        raise InvalidMigrationError(f"migration source names must be unique: {names}")
    plan = [migration for source in sources for migration in load_source(source)]
    if isinstance(db, str):
        conn = await connect(db)
        try:
            return await _migrate(conn, schema, set(names), plan)
        finally:
            await conn.close()
    if isinstance(db, asyncpg.Pool):
        async with db.acquire() as pooled:
            return await _migrate(pooled, schema, set(names), plan)
    return await _migrate(db, schema, set(names), plan)
