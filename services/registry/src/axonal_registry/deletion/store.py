"""SQL that deletes what the registry service holds of a deleted project, trace or run."""

from __future__ import annotations

from axonal_bus.deletion import delete_rows
from axonal_db import Connection

__all__ = ["delete_project", "delete_run"]

_BY_SLUG = (
    "alias_requests WHERE project = $1",
    "model_aliases WHERE project = $1",
    "model_version_scores WHERE project = $1",
    "promotion_gates WHERE project = $1",
    "model_versions WHERE project = $1",
    "models WHERE project = $1",
    "artifact_versions WHERE project = $1",
)
_BY_ID = (
    "prompt_labels WHERE project_id = $1",
    "prompt_protected_labels WHERE project_id = $1",
    "prompts WHERE project_id = $1",
)


async def delete_project(conn: Connection, slug: str, project_id: str) -> int:
    return await delete_rows(conn, _BY_SLUG, slug) + await delete_rows(conn, _BY_ID, project_id)


async def delete_run(conn: Connection, run_uuid: str) -> int:
    """The run's lineage (the model versions it registered stay: they are the registry's)."""
    return await delete_rows(conn, ["artifact_versions WHERE run_uuid = $1"], run_uuid)
