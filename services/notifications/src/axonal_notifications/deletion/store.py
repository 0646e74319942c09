"""SQL that deletes what the notifications service holds of a deleted project, trace or run."""

from __future__ import annotations

from axonal_bus.deletion import delete_rows
from axonal_db import Connection

__all__ = ["delete_project"]

# Deliveries go with their webhook or connection (trigger), attempts and sends cascade.
_PROJECT = (
    "alert_routes WHERE project = $1",
    "connections WHERE project = $1",
    "webhooks WHERE project = $1",
)


async def delete_project(conn: Connection, slug: str) -> int:
    return await delete_rows(conn, _PROJECT, slug)
