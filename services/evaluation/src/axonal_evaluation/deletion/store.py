"""SQL that deletes what the evaluation service holds of a deleted project, trace or run."""

from __future__ import annotations

from axonal_bus.deletion import delete_rows
from axonal_db import Connection

__all__ = ["delete_project", "delete_trace"]

_PROJECT = (
    "eval_jobs WHERE project_id = $1",
    "eval_rules WHERE project_id = $1",
    "eval_templates WHERE project_id = $1",
    "annotation_queue_items WHERE project_id = $1",
    "annotation_queues WHERE project_id = $1",
    "dataset_run_items WHERE project_id = $1",
    "dataset_runs WHERE project_id = $1",
    "dataset_items WHERE project_id = $1",
    "datasets WHERE project_id = $1",
    "score_configs WHERE project_id = $1",
    "llm_connections WHERE project_id = $1",
)
_TRACE = (
    "eval_jobs WHERE project_id = $1 AND trace_id = $2",
    "annotation_queue_items WHERE project_id = $1 AND object_type = 'TRACE' AND object_id = $2",
    "dataset_run_items WHERE project_id = $1 AND trace_id = $2",
)


async def delete_project(conn: Connection, project_id: str) -> int:
    return await delete_rows(conn, _PROJECT, project_id)


async def delete_trace(conn: Connection, project_id: str, trace_id: str) -> int:
    return await delete_rows(conn, _TRACE, project_id, trace_id)
