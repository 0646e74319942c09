"""SQL that deletes a project's or a run's rows (statuses, schedules and waits cascade), and
batches of expired log lines."""

from __future__ import annotations

from datetime import datetime

from axonal_bus.deletion import delete_rows
from axonal_db import Connection

__all__ = ["delete_project", "delete_run", "expire_logs"]

_OF_PROJECT = "(SELECT uuid FROM runs WHERE owner = $1 AND project = $2)"
_PROJECT = (
    f"run_logs WHERE run_uuid IN {_OF_PROJECT}",
    f"log_totals WHERE run_uuid IN {_OF_PROJECT}",
    f"run_waits WHERE target IN {_OF_PROJECT}",
    "runs WHERE owner = $1 AND project = $2",
    "automations WHERE project = $1 || '/' || $2",
    "project_retention WHERE owner = $1 AND name = $2",
)
_RUN = (
    "run_logs WHERE run_uuid = $1",
    "log_totals WHERE run_uuid = $1",
    "run_waits WHERE target = $1",
    "automation_firings WHERE run_uuid = $1",
    "runs WHERE uuid = $1",
)


async def delete_project(conn: Connection, owner: str, name: str) -> int:
    return await delete_rows(conn, _PROJECT, owner, name)


async def delete_run(conn: Connection, run_uuid: str) -> int:
    """Delete the run's rows; its uuid stays known as deleted (never created again)."""
    await conn.execute(
        "INSERT INTO deleted_runs (uuid) VALUES ($1) ON CONFLICT DO NOTHING", run_uuid
    )
    return await delete_rows(conn, _RUN, run_uuid)


async def expire_logs(conn: Connection, owner: str, name: str, cutoff: datetime, limit: int) -> int:
    """Delete up to ``limit`` log lines of the project's runs older than ``cutoff``."""
    status: str = await conn.execute(
        "DELETE FROM run_logs x USING (SELECT ctid FROM run_logs "  # noqa: S608
        f"WHERE run_uuid IN {_OF_PROJECT} AND at < $3 LIMIT $4) d WHERE x.ctid = d.ctid",
        owner,
        name,
        cutoff,
        limit,
    )
    return int(status.rsplit(maxsplit=1)[-1])
