"""SQL of ``artifact_versions``, and the model version a lineage graph starts from."""

from __future__ import annotations

from axonal_db import Connection
from axonal_events.catalog.models import ArtifactVersionCreated
from axonal_registry.domain.lineage import Used

__all__ = ["add", "model_version", "producers", "used_by"]


async def add(conn: Connection, data: ArtifactVersionCreated) -> None:
    """Record the artifact version; a redelivered event changes nothing."""
    await conn.execute(
        "INSERT INTO artifact_versions (project, run_uuid, name, step, sha256, kind, size, path, "
        "is_input) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) "
        "ON CONFLICT ON CONSTRAINT artifact_versions_key DO NOTHING",
        data.project,
        data.run_uuid,
        data.name,
        data.step,
        data.sha256,
        data.kind,
        data.size,
        data.path,
        data.is_input,
    )


async def used_by(conn: Connection, project: str, run_uuid: str) -> list[Used]:
    """The artifact versions the run read and wrote."""
    rows = await conn.fetch(
        "SELECT DISTINCT run_uuid, name, sha256, kind, size, is_input FROM artifact_versions "
        "WHERE project = $1 AND run_uuid = $2 ORDER BY name, sha256",
        project,
        run_uuid,
    )
    return [Used(**dict(row)) for row in rows]


async def producers(conn: Connection, project: str, sha256: str) -> list[str]:
    """Runs of the project that wrote these bytes."""
    rows = await conn.fetch(
        "SELECT DISTINCT run_uuid FROM artifact_versions WHERE project = $1 AND sha256 = $2 "
        "AND NOT is_input ORDER BY run_uuid",
        project,
        sha256,
    )
    return [row["run_uuid"] for row in rows]


async def model_version(
    conn: Connection, project: str, model: str, version: int
) -> dict[str, object] | None:
    """The run, artifact, bytes and state of a model version."""
    row = await conn.fetchrow(
        "SELECT run_uuid, artifact, sha256, size, archived FROM model_versions "
        "WHERE project = $1 AND model = $2 AND version = $3",
        project,
        model,
        version,
    )
    return dict(row) if row else None
