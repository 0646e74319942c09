"""SQL reads of the ``scores`` table: a trace's scores, and score lists with their filters."""

# ruff: noqa: S608 - SQL is assembled from fixed column names only; values are parameters
from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.trace_reads import ListScores, PageMeta, ScoreView
from axonal_tracking.domain import cursors
from axonal_tracking.traces.where import Where

__all__ = ["list_scores", "scores_of"]

_SCORE_COLUMNS = (
    "s.project_id, s.id, s.name, s.data_type, s.value, s.string_value, s.source, s.trace_id, "
    "s.observation_id, s.session_id, s.dataset_run_id, s.comment, s.metadata, s.config_id, "
    "s.queue_id, s.environment, s.timestamp, s.created_at, s.updated_at"
)


async def scores_of(conn: Connection, project_id: str, trace_id: str) -> list[ScoreView]:
    rows = await conn.fetch(
        f"SELECT {_SCORE_COLUMNS} FROM scores s WHERE s.project_id = $1 AND s.trace_id = $2 "
        "ORDER BY s.timestamp, s.id",
        project_id,
        trace_id,
    )
    return [ScoreView.model_validate(dict(r)) for r in rows]


_SCORE_TRACE = "LEFT JOIN traces t ON t.project_id = s.project_id AND t.id = s.trace_id"
_SCORE_TRACE_COLUMNS = (
    "t.id AS t_id, t.user_id AS t_user_id, coalesce(t.tags, '{}') AS t_tags, "
    "t.environment AS t_environment, t.session_id AS t_session_id"
)


def _listed_score(row: Any) -> ScoreView:
    """A score of a list, with its trace's context when its trace is stored."""
    fields = dict(row)
    trace = {key[2:]: fields.pop(key) for key in list(fields) if key.startswith("t_")}
    trace_id = trace.pop("id")
    return ScoreView.model_validate(fields | {"trace": trace if trace_id else None})


async def list_scores(
    conn: Connection, q: ListScores
) -> tuple[list[ScoreView], PageMeta, str | None]:
    where = Where(q.project_id, "s")
    for column in (
        "id",
        "name",
        "trace_id",
        "observation_id",
        "session_id",
        "dataset_run_id",
        "config_id",
        "queue_id",
    ):
        where.add(f"{column} = ANY({{}}::text[])", getattr(q, column))
    where.add("source = ANY({}::text[])", [s.value for s in q.source])
    where.add("data_type = ANY({}::text[])", [d.value for d in q.data_type])
    where.add("value = ANY({}::float8[])", q.values)
    where.add("string_value = ANY({}::text[])", q.labels)
    if q.author_user_id:
        where.clauses.append("false")  # no stored score has an author
    where.add("value >= {}", q.value_min)
    where.add("value <= {}", q.value_max)
    if q.value_is is not None:  # the operator is one of a fixed few (ValueCondition)
        where.add(f"value {q.value_is.operator} {{}}", q.value_is.value)
    where.window(q, "timestamp")
    if q.trace_tags:
        where.clauses.append(f"t.tags @> {where.next(q.trace_tags)}::text[]")
    if q.user_id:
        where.clauses.append(f"t.user_id = {where.next(q.user_id)}")
    total = await conn.fetchval(
        f"SELECT count(*) FROM scores s {_SCORE_TRACE} WHERE {where.sql()}", *where.args
    )
    if q.cursor:
        at, key = cursors.decode_score(q.cursor)
        where.clauses.append(f"(s.timestamp, s.id) < ({where.next(at)}, {where.next(key)})")
        offset = 0
    else:
        offset = (q.page - 1) * q.limit
    limit, skip = where.next(q.limit + 1), where.next(offset)
    rows = await conn.fetch(
        f"SELECT {_SCORE_COLUMNS}, {_SCORE_TRACE_COLUMNS} FROM scores s {_SCORE_TRACE} "
        f"WHERE {where.sql()} "
        f"ORDER BY s.timestamp DESC, s.id DESC LIMIT {limit} OFFSET {skip}",
        *where.args,
    )
    found = [_listed_score(row) for row in rows[: q.limit]]
    cursor = (
        cursors.encode_score(found[-1].timestamp, found[-1].id) if len(rows) > q.limit else None
    )
    return found, PageMeta.of(q.page, q.limit, total), cursor
