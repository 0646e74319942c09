"""SQL of the ``automations`` and ``automation_firings`` tables."""

from __future__ import annotations

import json
from typing import Any

from axonal_db import Connection
from axonal_events.automations import AutomationConfig, AutomationInfo, FiringInfo, FiringOutcome

__all__ = [
    "Rule",
    "create",
    "delete",
    "enabled_rules",
    "firings",
    "get",
    "list_rules",
    "record_firing",
    "started_by",
]

_INFO = (
    "SELECT a.id, a.project, a.spec, a.enabled, a.created_at, "
    "(SELECT count(*) FROM automation_firings f WHERE f.automation_id = a.id) AS firings "
    "FROM automations a "
)

Rule = tuple[str, AutomationConfig]


def _info(row: Any) -> AutomationInfo:
    return AutomationInfo(
        **{**row["spec"], "enabled": row["enabled"]},
        id=row["id"],
        project=row["project"],
        created_at=row["created_at"],
        firings=row["firings"],
    )


async def create(conn: Connection, rule_id: str, project: str, config: AutomationConfig) -> bool:
    """Store a rule; ``False`` when the project has a rule of that name."""
    spec = config.model_dump(mode="json", exclude={"enabled", "project"})
    status = await conn.execute(
        "INSERT INTO automations (id, project, name, spec, enabled) "
        "VALUES ($1, $2, $3, $4::text::jsonb, $5) ON CONFLICT (project, name) DO NOTHING",
        rule_id,
        project,
        config.name,
        json.dumps(spec),
        config.enabled,
    )
    return bool(status == "INSERT 0 1")


async def get(conn: Connection, project: str, rule_id: str) -> AutomationInfo | None:
    row = await conn.fetchrow(_INFO + "WHERE a.project = $1 AND a.id = $2", project, rule_id)
    return _info(row) if row else None


async def list_rules(conn: Connection, project: str) -> list[AutomationInfo]:
    rows = await conn.fetch(_INFO + "WHERE a.project = $1 ORDER BY a.created_at", project)
    return [_info(row) for row in rows]


async def delete(conn: Connection, project: str, rule_id: str) -> bool:
    status = await conn.execute(
        "DELETE FROM automations WHERE project = $1 AND id = $2", project, rule_id
    )
    return bool(status == "DELETE 1")


async def enabled_rules(conn: Connection, projects: list[str]) -> dict[str, list[Rule]]:
    """The enabled rules of ``projects`` with their ids, by project (those with none left out)."""
    rows = await conn.fetch(
        "SELECT id, project, spec FROM automations WHERE project = ANY($1::text[]) AND enabled "
        "ORDER BY created_at",
        projects,
    )
    found: dict[str, list[Rule]] = {}
    for row in rows:
        found.setdefault(row["project"], []).append(
            (row["id"], AutomationConfig.model_validate(row["spec"]))
        )
    return found


async def record_firing(
    conn: Connection,
    rule_id: str,
    event_id: str,
    event_type: str,
    outcome: FiringOutcome,
    run_uuid: str | None = None,
    detail: str | None = None,
) -> bool:
    """Record that ``rule_id`` fired on ``event_id``; ``False`` if it already had."""
    status = await conn.execute(
        "INSERT INTO automation_firings "
        "(automation_id, event_id, event_type, outcome, run_uuid, detail) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
        rule_id,
        event_id,
        event_type,
        outcome.value,
        run_uuid,
        detail,
    )
    return bool(status == "INSERT 0 1")


async def started_by(conn: Connection, rule_id: str, run_uuid: str) -> bool:
    """Whether ``run_uuid`` is a run that ``rule_id`` started or restarted."""
    found = await conn.fetchval(
        "SELECT 1 FROM automation_firings WHERE automation_id = $1 AND run_uuid = $2 "
        "AND outcome IN ('started', 'restarted')",
        rule_id,
        run_uuid,
    )
    return found is not None


async def firings(conn: Connection, rule_id: str, limit: int) -> list[FiringInfo]:
    """The newest firings of a rule."""
    rows = await conn.fetch(
        "SELECT automation_id, event_id, event_type, at, outcome, run_uuid, detail "
        "FROM automation_firings WHERE automation_id = $1 ORDER BY at DESC LIMIT $2",
        rule_id,
        limit,
    )
    return [FiringInfo(**dict(row)) for row in rows]
