"""SQL of the ``models`` table: a project's own LLM model definitions (prices)."""

from __future__ import annotations

import uuid

from axonal_db import Connection
from axonal_events.llm_models import ModelDefinition, ModelSpec

__all__ = ["create", "delete", "own"]

# the table's columns are ModelDefinition's fields (a project's definitions are not managed)


async def create(conn: Connection, spec: ModelSpec) -> ModelDefinition:
    row = await conn.fetchrow(
        "INSERT INTO models (id, project_id, model_name, match_pattern, start_date, unit, "
        "tiers, tokenizer_model) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING *",
        uuid.uuid4().hex,
        spec.project_id,
        spec.model_name,
        spec.match_pattern,
        spec.start_date,
        spec.unit.value,
        [tier.model_dump(mode="json") for tier in spec.tiers],
        spec.tokenizer_model,
    )
    assert row is not None  # RETURNING of an INSERT
    return ModelDefinition.model_validate(dict(row))


async def own(conn: Connection, project_id: str) -> list[ModelDefinition]:
    """The project's definitions, newest first."""
    rows = await conn.fetch(
        "SELECT * FROM models WHERE project_id = $1 ORDER BY created_at DESC, id",
        project_id,
    )
    return [ModelDefinition.model_validate(dict(row)) for row in rows]


async def delete(conn: Connection, project_id: str, model_id: str) -> ModelDefinition | None:
    row = await conn.fetchrow(
        "DELETE FROM models WHERE project_id = $1 AND id = $2 RETURNING *",
        project_id,
        model_id,
    )
    return ModelDefinition.model_validate(dict(row)) if row else None
