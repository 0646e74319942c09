"""SQL that deletes what the optimization service holds of a deleted project, trace or run."""

from __future__ import annotations

from axonal_bus.deletion import delete_rows
from axonal_db import Connection

__all__ = ["delete_project"]


async def delete_project(conn: Connection, owner: str, name: str) -> int:
    """The project's studies; trials and tuner runs cascade."""
    return await delete_rows(conn, ["studies WHERE owner = $1 AND project = $2"], owner, name)
