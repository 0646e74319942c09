"""SQL of the ``artifacts`` table: idempotent upsert, a run's artifacts, lineage between runs."""

from __future__ import annotations

import asyncpg

from axonal_db import Connection
from axonal_events.artifacts import ArtifactRecord, Lineage, LineageLink

__all__ = ["lineage", "list_for", "upsert"]

_COLUMNS = "run_uuid, project, name, step, kind, path, size, sha256, is_input, summary, created_at"
# the column list is a constant: no user input is formatted into SQL
_UPSERT = (
    f"INSERT INTO artifacts ({_COLUMNS}) VALUES"  # noqa: S608
    " ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
    "ON CONFLICT ON CONSTRAINT artifacts_key DO UPDATE SET project = EXCLUDED.project, "
    "kind = EXCLUDED.kind, path = EXCLUDED.path, size = EXCLUDED.size, "
    "sha256 = EXCLUDED.sha256, is_input = EXCLUDED.is_input, summary = EXCLUDED.summary, "
    "created_at = EXCLUDED.created_at WHERE artifacts.created_at <= EXCLUDED.created_at"
)
_OF_RUN = f"SELECT {_COLUMNS} FROM artifacts WHERE run_uuid = $1 ORDER BY name, step NULLS FIRST"  # noqa: S608


async def upsert(conn: Connection, record: ArtifactRecord) -> None:
    """Store ``record``; one row per (run, name, step), the newest upload wins."""
    await conn.execute(
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


async def list_for(conn: Connection, run_uuid: str) -> list[ArtifactRecord]:
    rows = await conn.fetch(_OF_RUN, run_uuid)
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
