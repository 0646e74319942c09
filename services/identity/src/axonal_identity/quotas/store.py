"""SQL of the ``quotas`` columns of the ``projects`` table."""

from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.quotas import ProjectQuotas, QuotaLimits

__all__ = ["quotas", "set_quotas"]

_QUOTAS = "id AS project_id, owner, name, quotas, quotas_updated_at AS updated_at"


def _quotas(row: Any) -> ProjectQuotas:
    return ProjectQuotas(
        project_id=row["project_id"],
        owner=row["owner"],
        name=row["name"],
        quotas=QuotaLimits.model_validate(row["quotas"]),
        updated_at=row["updated_at"],
    )


async def quotas(conn: Connection, owner: str, name: str) -> ProjectQuotas | None:
    row = await conn.fetchrow(
        f"SELECT {_QUOTAS} FROM projects WHERE owner = $1 AND name = $2",  # noqa: S608
        owner,
        name,
    )
    return _quotas(row) if row else None


async def set_quotas(
    conn: Connection, owner: str, name: str, limits: QuotaLimits
) -> ProjectQuotas | None:
    row = await conn.fetchrow(
        "UPDATE projects SET quotas = $3, quotas_updated_at = now() "  # noqa: S608
        f"WHERE owner = $1 AND name = $2 RETURNING {_QUOTAS}",
        owner,
        name,
        limits.model_dump(exclude_none=True),
    )
    return _quotas(row) if row else None
