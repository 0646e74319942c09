"""SQL of the ``artifacts`` table: versions kept by their bytes, a run's latest artifacts,
one artifact's versions, lineage between runs."""

from __future__ import annotations

import asyncpg

from axonal_db import Connection
from axonal_events.artifacts import ArtifactRecord, Lineage, LineageLink

__all__ = ["lineage", "list_for", "stored_bytes", "upsert", "versions_of"]

_COLUMNS = "run_uuid, project, name, step, kind, path, size, sha256, is_input, summary, created_at"
# the column list is a constant: no user input is formatted into SQL
_UPSERT = (
    f"INSERT INTO artifacts ({_COLUMNS}) VALUES"  # noqa: S608
    " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
    "ON CONFLICT ON CONSTRAINT artifacts_key DO UPDATE SET "
    "created_at = GREATEST(artifacts.created_at, EXCLUDED.created_at) "
    "RETURNING (xmax = 0) AS added"
)
_LATEST = (
    f"SELECT DISTINCT ON (name, step) {_COLUMNS} FROM artifacts WHERE run_uuid = $1 "  # noqa: S608
    "ORDER BY name, step NULLS FIRST, created_at DESC"
)
_VERSIONS = (
    f"SELECT {_COLUMNS} FROM artifacts WHERE run_uuid = $1 "  # noqa: S608
    "AND ($2::text IS NULL OR name = $2) AND ($3::text IS NULL OR path = $3) "
    "ORDER BY created_at DESC, step NULLS FIRST"
)


async def upsert(conn: Connection, record: ArtifactRecord) -> bool:
    """Store ``record``; whether its bytes are a new version of (run, name, step).

    The same bytes again add no row: they only become the latest again (a redelivery keeps
    the row as it was).
    """
    added: bool = await conn.fetchval(
        _UPSERT,
        record.run_uuid,
        record.project,
        record.name,
        record.step,
        record.kind.value,
        record.path,
        record.size,
        record.sha256,
        record.is_input,
        record.summary,
        record.created_at,
    )
    return added


async def stored_bytes(conn: Connection, project: str) -> int:
    """Bytes of the project's artifacts, each distinct content once (it is stored once)."""
    found = await conn.fetchval(
        "SELECT COALESCE(sum(size), 0) FROM (SELECT DISTINCT ON (sha256) size FROM artifacts "
        "WHERE project = $1 ORDER BY sha256) AS contents",
        project,
    )
    return int(found)


async def list_for(conn: Connection, run_uuid: str) -> list[ArtifactRecord]:
    """The run's artifacts, the latest version of each (name, step)."""
    rows = await conn.fetch(_LATEST, run_uuid)
    return [_record(row) for row in rows]


async def versions_of(
    conn: Connection, run_uuid: str, name: str | None, path: str | None
) -> list[ArtifactRecord]:
    """Every version of the run's artifact ``name`` (or at store key ``path``), newest first."""
    rows = await conn.fetch(_VERSIONS, run_uuid, name, path)
    return [_record(row) for row in rows]


async def lineage(conn: Connection, run_uuid: str) -> Lineage:
    """The run's inputs and outputs, each with the other runs that produced or consumed the
    same bytes (sha256) or the same store key in its project."""
    own = await list_for(conn, run_uuid)
    rows = await conn.fetch(
        "SELECT DISTINCT a.sha256, a.path, o.run_uuid, o.is_input FROM artifacts a "
        "JOIN artifacts o ON o.project = a.project AND o.run_uuid <> a.run_uuid "
        "AND (o.sha256 = a.sha256 OR o.path = a.path) WHERE a.run_uuid = $1 "
        "ORDER BY o.run_uuid",
        run_uuid,
    )
    inputs: list[LineageLink] = []
    outputs: list[LineageLink] = []
    for record in own:
        related = [r for r in rows if (r["sha256"], r["path"]) == (record.sha256, record.path)]
        link = LineageLink(
            artifact=record,
            produced_by=_runs(related, is_input=False),
            consumed_by=_runs(related, is_input=True),
        )
        (inputs if record.is_input else outputs).append(link)
    return Lineage(run_uuid=run_uuid, inputs=inputs, outputs=outputs)


def _runs(rows: list[asyncpg.Record], *, is_input: bool) -> list[str]:
    return sorted({row["run_uuid"] for row in rows if row["is_input"] is is_input})


def _record(row: asyncpg.Record) -> ArtifactRecord:
    return ArtifactRecord.model_validate(dict(row))
