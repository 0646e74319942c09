"""SQL of ``model_version_scores`` and ``promotion_gates``."""

from __future__ import annotations

from axonal_db import Connection
from axonal_events.model_evaluations import ModelVersionScore, PromotionGate, RecordModelScores

__all__ = ["add_scores", "gates_of", "scores_of", "set_gates"]


async def add_scores(conn: Connection, request: RecordModelScores, version: int) -> None:
    """Record the run's scores on ``version``; a metric the run recorded before is replaced."""
    await conn.executemany(
        "INSERT INTO model_version_scores (project, model, version, name, run_uuid, value, "
        "dataset) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (project, model, version, "
        "name, run_uuid) DO UPDATE SET value = EXCLUDED.value, dataset = EXCLUDED.dataset, "
        "recorded_at = now()",
        [
            (request.project, request.model, version, name, request.run_uuid, value,
             request.dataset)
            for name, value in request.scores.items()
        ],
    )  # fmt: skip


async def scores_of(
    conn: Connection, project: str, model: str, version: int
) -> list[ModelVersionScore]:
    rows = await conn.fetch(
        "SELECT name, value, run_uuid, dataset, recorded_at FROM model_version_scores "
        "WHERE project = $1 AND model = $2 AND version = $3 ORDER BY recorded_at DESC, name",
        project,
        model,
        version,
    )
    return [ModelVersionScore.model_validate(dict(row)) for row in rows]


async def gates_of(
    conn: Connection, project: str, model: str, alias: str | None = None
) -> dict[str, list[PromotionGate]]:
    """The gates of every alias of the model (or of ``alias`` only), by alias."""
    rows = await conn.fetch(
        "SELECT alias, metric, op, threshold FROM promotion_gates WHERE project = $1 AND "
        "model = $2 AND ($3::text IS NULL OR alias = $3) ORDER BY alias, metric",
        project,
        model,
        alias,
    )
    gates: dict[str, list[PromotionGate]] = {}
    for row in rows:
        gate = PromotionGate(metric=row["metric"], op=row["op"], threshold=row["threshold"])
        gates.setdefault(row["alias"], []).append(gate)
    return gates


async def set_gates(
    conn: Connection, project: str, model: str, alias: str, gates: list[PromotionGate]
) -> None:
    """Replace the gates of ``alias``."""
    await conn.execute(
        "DELETE FROM promotion_gates WHERE project = $1 AND model = $2 AND alias = $3",
        project,
        model,
        alias,
    )
    await conn.executemany(
        "INSERT INTO promotion_gates (project, model, alias, metric, op, threshold) "
        "VALUES ($1, $2, $3, $4, $5, $6)",
        [(project, model, alias, g.metric, g.op, g.threshold) for g in gates],
    )
