"""SQL reads of the ``traces``, ``observations`` and ``sessions`` tables (scores: see
:mod:`.score_queries`)."""

# ruff: noqa: S608 - SQL is assembled from fixed column names only; values are parameters
from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.trace_reads import (
    ListObservations,
    ListSessions,
    ListTraces,
    ListUsers,
    ObservationView,
    Order,
    PageMeta,
    SessionView,
    TraceView,
    UserView,
)
from axonal_traces.pricing import shipped_models
from axonal_tracking.domain import cursors
from axonal_tracking.prices import store as prices_store
from axonal_tracking.traces.where import Where

__all__ = [
    "get_observation",
    "get_session",
    "get_trace",
    "list_observations",
    "list_sessions",
    "list_traces",
    "list_users",
    "observations_of",
    "priced",
]


def _usage(key: str) -> str:
    """The sum over observations of one usage type (``total``: that, else of every type)."""
    if key != "total":
        return f"coalesce(sum((o.usage_details->>'{key}')::bigint), 0)"
    every = "(SELECT sum(v::bigint) FROM jsonb_each_text(o.usage_details) u(k, v))"
    return f"coalesce(sum(coalesce((o.usage_details->>'total')::bigint, {every})), 0)"


_TRACE_COLUMNS = (
    "t.project_id, t.id, t.timestamp, t.name, t.user_id, t.session_id, t.input, t.output, "
    "t.metadata, t.tags, t.public, t.release, t.version, t.environment, t.run_uuid, "
    "t.created_at, t.updated_at, "
    "coalesce(a.observation_ids, '{}') AS observation_ids, coalesce(a.total_cost, 0) AS "
    "total_cost, a.latency, coalesce(s.score_ids, '{}') AS score_ids, "
    "coalesce(a.input_tokens, 0) AS input_tokens, coalesce(a.output_tokens, 0) AS output_tokens, "
    "coalesce(a.total_tokens, 0) AS total_tokens "
    "FROM traces t "
    "LEFT JOIN LATERAL (SELECT array_agg(o.id ORDER BY o.start_time) AS observation_ids, "
    f"{_usage('input')} AS input_tokens, {_usage('output')} AS output_tokens, "
    f"{_usage('total')} AS total_tokens, "
    "sum(o.total_cost) AS total_cost, extract(epoch FROM max(coalesce(o.end_time, "
    "o.start_time)) - min(o.start_time))::float8 AS latency FROM observations o "
    "WHERE o.project_id = t.project_id AND o.trace_id = t.id) a ON true "
    "LEFT JOIN LATERAL (SELECT array_agg(sc.id ORDER BY sc.timestamp) AS score_ids "
    "FROM scores sc WHERE sc.project_id = t.project_id AND sc.trace_id = t.id) s ON true "
)
_FROM_OBSERVATIONS = (
    "observations o LEFT JOIN traces t ON t.project_id = o.project_id AND t.id = o.trace_id"
)
_OBSERVATIONS = (  # with the context of its trace, which the trace's batch may not have made yet
    "o.project_id, o.id, o.trace_id, o.type, o.parent_observation_id, o.name, o.start_time, "
    "o.end_time, o.completion_start_time, o.input, o.output, o.metadata, o.level, "
    "o.status_message, o.version, o.release, o.environment, o.model, o.model_parameters, "
    "o.usage_details, o.cost_details, o.cost_source, o.total_cost, o.model_id, o.pricing_tier, "
    "o.prompt_name, "
    "o.prompt_version, o.experiment, o.created_at, o.updated_at, t.name AS trace_name, "
    "t.user_id, t.session_id, coalesce(t.tags, '{}') AS tags, t.release AS trace_release, "
    "coalesce(t.public, false) AS trace_public "
    f"FROM {_FROM_OBSERVATIONS}"
)


def _trace(row: Any) -> TraceView:
    return TraceView.model_validate(dict(row))


#: SQL of each orderable trace column; no trace is bookmarked (the UI has no bookmarks).
_TRACE_ORDER = {
    "id": "t.id",
    "timestamp": "t.timestamp",
    "name": "t.name",
    "user_id": "t.user_id",
    "release": "t.release",
    "version": "t.version",
    "public": "t.public",
    "bookmarked": "false",
    "session_id": "t.session_id",
}


def _trace_order(order: Order | None) -> str:
    """``ORDER BY`` of a trace list: the column asked for, then the newest first."""
    newest = "t.timestamp DESC, t.id"
    if order is None:
        return newest
    direction = "DESC NULLS LAST" if order.descending else "ASC NULLS LAST"
    return f"{_TRACE_ORDER[order.field]} {direction}, {newest}"


async def list_traces(conn: Connection, q: ListTraces) -> tuple[list[TraceView], PageMeta]:
    where = Where(q.project_id, "t")
    for column in ("user_id", "session_id", "name", "release", "version"):
        where.add(f"{column} = {{}}", getattr(q, column))
    where.add("tags @> {}::text[]", q.tags)
    where.window(q, "timestamp")
    if q.score_name is not None:
        scored = f"sc.name = {where.next(q.score_name)}"
        if q.score_min is not None:
            scored += f" AND sc.value >= {where.next(q.score_min)}"
        if q.score_max is not None:
            scored += f" AND sc.value <= {where.next(q.score_max)}"
        where.clauses.append(
            "EXISTS (SELECT 1 FROM scores sc WHERE sc.project_id = t.project_id "
            f"AND sc.trace_id = t.id AND {scored})"
        )
    total = await conn.fetchval(f"SELECT count(*) FROM traces t WHERE {where.sql()}", *where.args)
    limit, offset = where.next(q.limit), where.next((q.page - 1) * q.limit)
    rows = await conn.fetch(
        f"SELECT {_TRACE_COLUMNS} WHERE {where.sql()} "
        f"ORDER BY {_trace_order(q.order)} LIMIT {limit} OFFSET {offset}",
        *where.args,
    )
    return [_trace(r) for r in rows], PageMeta.of(q.page, q.limit, total)


async def get_trace(conn: Connection, project_id: str, trace_id: str) -> TraceView | None:
    row = await conn.fetchrow(
        f"SELECT {_TRACE_COLUMNS} WHERE t.project_id = $1 AND t.id = $2", project_id, trace_id
    )
    return _trace(row) if row else None


async def observations_of(
    conn: Connection, project_id: str, trace_id: str
) -> list[ObservationView]:
    rows = await conn.fetch(
        f"SELECT {_OBSERVATIONS} "
        "WHERE o.project_id = $1 AND o.trace_id = $2 ORDER BY o.start_time, o.id",
        project_id,
        trace_id,
    )
    return [ObservationView.model_validate(dict(r)) for r in rows]


async def priced(
    conn: Connection, project_id: str, views: list[ObservationView]
) -> list[ObservationView]:
    """``views`` with the default prices of the definitions that priced them."""
    wanted = {view.model_id for view in views if view.model_id}
    if not wanted:
        return views
    known = [*shipped_models(), *await prices_store.own(conn, project_id)]
    prices = {
        d.id: next((t.prices for t in d.tiers if t.is_default), {}) for d in known if d.id in wanted
    }
    return [
        view.model_copy(update={"model_prices": prices.get(view.model_id or "", {})})
        for view in views
    ]


async def list_observations(
    conn: Connection, q: ListObservations
) -> tuple[list[ObservationView], str | None, PageMeta | None]:
    """Newest first, as Langfuse pages them: by start time, then trace id, then id; a page of
    ``q.page`` carries its meta, any other its next cursor."""
    where = Where(q.project_id, "o")
    for column in ("trace_id", "name", "parent_observation_id", "version"):
        where.add(f"{column} = {{}}", getattr(q, column))
    where.add("type = {}", q.type.value if q.type else None)
    where.add("level = {}", q.level.value if q.level else None)
    where.window(q, "start_time")
    for column in ("user_id", "session_id"):
        if (value := getattr(q, column)) is not None:
            where.clauses.append(f"t.{column} = {where.next(value)}")
    if q.is_root_observation is not None:
        where.clauses.append(
            f"o.parent_observation_id IS {'' if q.is_root_observation else 'NOT '}NULL"
        )
    order = "ORDER BY o.start_time DESC, o.trace_id DESC, o.id DESC"
    if q.page:
        counted = f"SELECT count(*) FROM {_FROM_OBSERVATIONS} WHERE {where.sql()}"
        total = await conn.fetchval(counted, *where.args)
        limit, offset = where.next(q.limit), where.next((q.page - 1) * q.limit)
        rows = await conn.fetch(
            f"SELECT {_OBSERVATIONS} WHERE {where.sql()} {order} LIMIT {limit} OFFSET {offset}",
            *where.args,
        )
        found = [ObservationView.model_validate(dict(r)) for r in rows]
        return found, None, PageMeta.of(q.page, q.limit, total)
    if q.cursor:
        at, trace_id, key = cursors.decode_observation(q.cursor)
        where.clauses.append(
            f"(o.start_time, o.trace_id, o.id) < "
            f"({where.next(at)}, {where.next(trace_id)}, {where.next(key)})"
        )
    limit = where.next(q.limit + 1)
    rows = await conn.fetch(
        f"SELECT {_OBSERVATIONS} WHERE {where.sql()} {order} LIMIT {limit}", *where.args
    )
    found = [ObservationView.model_validate(dict(r)) for r in rows[: q.limit]]
    if len(rows) <= q.limit:
        return found, None, None
    last = found[-1]
    return found, cursors.encode_observation(last.start_time, last.trace_id, last.id), None


async def get_observation(
    conn: Connection, project_id: str, observation_id: str
) -> ObservationView | None:
    row = await conn.fetchrow(
        f"SELECT {_OBSERVATIONS} WHERE o.project_id = $1 AND o.id = $2", project_id, observation_id
    )
    return ObservationView.model_validate(dict(row)) if row else None


_SESSIONS = (  # with the totals of their traces
    "SELECT x.project_id, x.id, x.created_at, x.environment, "
    "coalesce(g.trace_ids, '{}') AS trace_ids, coalesce(g.trace_count, 0) AS trace_count, "
    "g.first_trace_at, g.last_trace_at, coalesce(g.total_cost, 0) AS total_cost, "
    "coalesce(g.user_ids, '{}') AS user_ids FROM sessions x "
    "LEFT JOIN LATERAL (SELECT array_agg(t.id ORDER BY t.timestamp) AS trace_ids, "
    "count(*) AS trace_count, min(t.timestamp) AS first_trace_at, "
    "max(t.timestamp) AS last_trace_at, sum((SELECT sum(o.total_cost) FROM observations o "
    "WHERE o.project_id = t.project_id AND o.trace_id = t.id)) AS total_cost, "
    "array_agg(DISTINCT t.user_id) FILTER (WHERE t.user_id IS NOT NULL) AS user_ids "
    "FROM traces t WHERE t.project_id = x.project_id AND t.session_id = x.id) g ON true"
)


async def list_sessions(conn: Connection, q: ListSessions) -> tuple[list[SessionView], PageMeta]:
    where = Where(q.project_id, "x")
    where.window(q, "created_at")
    total = await conn.fetchval(f"SELECT count(*) FROM sessions x WHERE {where.sql()}", *where.args)
    limit, offset = where.next(q.limit), where.next((q.page - 1) * q.limit)
    rows = await conn.fetch(
        f"{_SESSIONS} WHERE {where.sql()} "
        f"ORDER BY x.created_at DESC, x.id LIMIT {limit} OFFSET {offset}",
        *where.args,
    )
    return [SessionView.model_validate(dict(r)) for r in rows], PageMeta.of(q.page, q.limit, total)


async def get_session(
    conn: Connection, project_id: str, session_id: str
) -> tuple[SessionView, list[TraceView]] | None:
    row = await conn.fetchrow(
        f"{_SESSIONS} WHERE x.project_id = $1 AND x.id = $2",
        project_id,
        session_id,
    )
    if row is None:
        return None
    traces = await conn.fetch(
        f"SELECT {_TRACE_COLUMNS} WHERE t.project_id = $1 AND t.session_id = $2 "
        "ORDER BY t.timestamp",
        project_id,
        session_id,
    )
    return SessionView.model_validate(dict(row)), [_trace(r) for r in traces]


async def list_users(conn: Connection, q: ListUsers) -> tuple[list[UserView], PageMeta]:
    """Traces grouped by their user, with what their observations used and cost."""
    where = Where(q.project_id, "t")
    where.clauses.append("t.user_id IS NOT NULL")
    where.window(q, "timestamp")
    total = await conn.fetchval(
        f"SELECT count(DISTINCT t.user_id) FROM traces t WHERE {where.sql()}", *where.args
    )
    limit, offset = where.next(q.limit), where.next((q.page - 1) * q.limit)
    rows = await conn.fetch(
        "SELECT t.user_id, count(*) AS trace_count, min(t.timestamp) AS first_seen, "
        "max(t.timestamp) AS last_seen, coalesce(sum(a.input_tokens), 0) AS input_tokens, "
        "coalesce(sum(a.output_tokens), 0) AS output_tokens, "
        "coalesce(sum(a.total_tokens), 0) AS total_tokens, "
        "coalesce(sum(a.total_cost), 0) AS total_cost FROM traces t "
        f"LEFT JOIN LATERAL (SELECT {_usage('input')} AS input_tokens, "
        f"{_usage('output')} AS output_tokens, {_usage('total')} AS total_tokens, "
        "sum(o.total_cost) AS total_cost FROM observations o "
        "WHERE o.project_id = t.project_id AND o.trace_id = t.id) a ON true "
        f"WHERE {where.sql()} GROUP BY t.user_id "
        f"ORDER BY max(t.timestamp) DESC, t.user_id LIMIT {limit} OFFSET {offset}",
        *where.args,
    )
    found = [UserView.model_validate(dict(r)) for r in rows]
    return found, PageMeta.of(q.page, q.limit, total)
