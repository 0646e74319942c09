"""SQL reads of the generations that linked a prompt: each with its latency, cost and scores,
and each version's figures."""

# ruff: noqa: S608 - SQL is assembled from fixed fragments only; values are parameters
from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.prompts import (
    GenerationScore,
    PromptGeneration,
    PromptGenerations,
    PromptVersionUsage,
)
from axonal_events.trace_reads import PageMeta

__all__ = ["generations", "usage"]

_LINKED = "o.project_id = $1 AND o.prompt_name = $2 AND ($3::int IS NULL OR o.prompt_version = $3)"
_SCORES_OF_O = (  # a score on the generation, or on its trace as a whole
    "s.project_id = o.project_id AND (s.observation_id = o.id "
    "OR (s.observation_id IS NULL AND s.trace_id = o.trace_id))"
)
_LATENCY = "extract(epoch FROM o.end_time - o.start_time)::float8"


def _generation(row: Any) -> PromptGeneration:
    fields = dict(row)
    scores = [GenerationScore.model_validate(s) for s in fields.pop("scores")]
    return PromptGeneration.model_validate(fields | {"scores": scores})


async def generations(
    conn: Connection, q: PromptGenerations
) -> tuple[list[PromptGeneration], PageMeta]:
    """A page of the generations, newest first."""
    total = await conn.fetchval(
        f"SELECT count(*) FROM observations o WHERE {_LINKED}", q.project_id, q.name, q.version
    )
    rows = await conn.fetch(
        "SELECT o.id, o.trace_id, o.name, o.prompt_version, o.model, o.start_time, "
        f"{_LATENCY} AS latency, o.total_cost, "
        "coalesce((SELECT jsonb_agg(jsonb_build_object('name', s.name, 'value', s.value, "
        f"'string_value', s.string_value) ORDER BY s.timestamp) FROM scores s WHERE {_SCORES_OF_O}"
        "), '[]') AS scores "
        f"FROM observations o WHERE {_LINKED} ORDER BY o.start_time DESC, o.id DESC "
        "LIMIT $4 OFFSET $5",
        q.project_id,
        q.name,
        q.version,
        q.limit,
        (q.page - 1) * q.limit,
    )
    return [_generation(r) for r in rows], PageMeta.of(q.page, q.limit, total)


async def usage(conn: Connection, q: PromptGenerations) -> list[PromptVersionUsage]:
    """Each version's count, latency percentiles, cost and mean scores, newest first."""
    rows = await conn.fetch(
        "SELECT o.prompt_version AS version, count(*) AS generations, "
        f"percentile_cont(0.5) WITHIN GROUP (ORDER BY {_LATENCY}) AS latency_p50, "
        f"percentile_cont(0.99) WITHIN GROUP (ORDER BY {_LATENCY}) AS latency_p99, "
        "coalesce(sum(o.total_cost), 0)::float8 AS total_cost "
        f"FROM observations o WHERE {_LINKED} AND o.prompt_version IS NOT NULL "
        "GROUP BY o.prompt_version ORDER BY o.prompt_version DESC",
        q.project_id,
        q.name,
        q.version,
    )
    means = await conn.fetch(
        "SELECT o.prompt_version AS version, s.name, avg(s.value)::float8 AS mean "
        f"FROM observations o JOIN scores s ON {_SCORES_OF_O} "
        f"WHERE {_LINKED} AND s.data_type IN ('NUMERIC', 'BOOLEAN') AND s.value IS NOT NULL "
        "GROUP BY o.prompt_version, s.name",
        q.project_id,
        q.name,
        q.version,
    )
    scores: dict[int, dict[str, float]] = {}
    for row in means:
        scores.setdefault(row["version"], {})[row["name"]] = row["mean"]
    return [
        PromptVersionUsage.model_validate(dict(r) | {"scores": scores.get(r["version"], {})})
        for r in rows
    ]
