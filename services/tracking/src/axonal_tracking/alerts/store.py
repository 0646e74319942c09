"""SQL of the ``alert_rules`` table and of ``alert_states`` (where each rule stands for a run)."""

from __future__ import annotations

import uuid

from axonal_db import Connection
from axonal_events import Comparison
from axonal_events.metrics import AlertRuleInfo, AlertRuleSpec
from axonal_tracking.domain.alerts import AlertRule, AlertState

__all__ = ["create", "delete", "list_for", "lock_state", "rules_for", "save_state"]


async def create(conn: Connection, spec: AlertRuleSpec) -> AlertRuleInfo:
    row = await conn.fetchrow(
        "INSERT INTO alert_rules (id, project, metric, comparison, threshold, for_points, "
        "hysteresis, tags) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id, project, "
        "metric, comparison, threshold, for_points, hysteresis, tags, created_at",
        uuid.uuid4().hex,
        spec.project,
        spec.metric,
        spec.comparison.value,
        spec.threshold,
        spec.for_points,
        spec.hysteresis,
        sorted(set(spec.tags)),
    )
    assert row is not None  # RETURNING of an INSERT
    return AlertRuleInfo.model_validate(dict(row))


async def list_for(conn: Connection, project: str) -> list[AlertRuleInfo]:
    rows = await conn.fetch(
        "SELECT id, project, metric, comparison, threshold, for_points, hysteresis, tags, "
        "created_at FROM alert_rules WHERE project = $1 ORDER BY created_at",
        project,
    )
    return [AlertRuleInfo.model_validate(dict(row)) for row in rows]


async def delete(conn: Connection, project: str, rule_id: str) -> bool:
    status: str = await conn.execute(
        "DELETE FROM alert_rules WHERE project = $1 AND id = $2", project, rule_id
    )
    return status.endswith(" 1")


async def rules_for(
    conn: Connection, project: str, metrics: list[str], run_tags: list[str]
) -> list[AlertRule]:
    """The project's rules on these metrics that watch a run with ``run_tags``."""
    rows = await conn.fetch(
        "SELECT id, project, metric, comparison, threshold, for_points, hysteresis "
        "FROM alert_rules WHERE project = $1 AND metric = ANY($2::text[]) "
        "AND tags <@ $3::text[]",
        project,
        metrics,
        run_tags,
    )
    return [
        AlertRule(
            id=row["id"],
            project=row["project"],
            metric=row["metric"],
            comparison=Comparison(row["comparison"]),
            threshold=row["threshold"],
            for_points=row["for_points"],
            hysteresis=row["hysteresis"],
        )
        for row in rows
    ]


async def lock_state(conn: Connection, rule_id: str, run_uuid: str) -> AlertState:
    """The state, locked for this transaction (replicas evaluate a run's batches one by one)."""
    await conn.execute(
        "INSERT INTO alert_states (rule_id, run_uuid, streak, firing, last_step) "
        "VALUES ($1, $2, 0, false, -1) ON CONFLICT DO NOTHING",
        rule_id,
        run_uuid,
    )
    row = await conn.fetchrow(
        "SELECT streak, firing, last_step FROM alert_states "
        "WHERE rule_id = $1 AND run_uuid = $2 FOR UPDATE",
        rule_id,
        run_uuid,
    )
    assert row is not None  # inserted just above
    return AlertState(streak=row["streak"], firing=row["firing"], last_step=row["last_step"])


async def save_state(conn: Connection, rule_id: str, run_uuid: str, state: AlertState) -> None:
    await conn.execute(
        "UPDATE alert_states SET streak = $3, firing = $4, last_step = $5 "
        "WHERE rule_id = $1 AND run_uuid = $2",
        rule_id,
        run_uuid,
        state.streak,
        state.firing,
        state.last_step,
    )
