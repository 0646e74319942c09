"""SQL of the ``project_quotas`` table."""

from __future__ import annotations

from datetime import datetime

from axonal_db import Connection
from axonal_events.catalog import ProjectQuotasChanged

__all__ = ["save"]


async def save(conn: Connection, changed: ProjectQuotasChanged, at: datetime) -> None:
    """Keep the project's concurrent runs; an older change than the one kept changes nothing."""
    await conn.execute(
        "INSERT INTO project_quotas (owner, name, concurrent_runs, changed_at) "
        "VALUES ($1, $2, $3, $4) ON CONFLICT (owner, name) DO UPDATE SET "
        "concurrent_runs = EXCLUDED.concurrent_runs, changed_at = EXCLUDED.changed_at "
        "WHERE project_quotas.changed_at <= EXCLUDED.changed_at",
        changed.owner,
        changed.name,
        changed.quotas.concurrent_runs,
        at,
    )
