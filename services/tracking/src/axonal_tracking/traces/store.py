"""SQL writes of ``traces``, ``observations``, ``scores`` and ``sessions``: merge-upserts."""

# ruff: noqa: S608 - SQL is assembled from fixed column names only; values are parameters
from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Literal

from axonal_db import Connection

__all__ = [
    "ADDED", "COLUMNS", "ROW_TAIL", "Table", "insert_new", "lock_ids", "states", "trace_exists",
    "upsert", "upsert_sessions",
]  # fmt: skip

Table = Literal["traces", "observations", "scores"]

COLUMNS: dict[str, tuple[str, ...]] = {
    "traces": (
        "project_id",
        "id",
        "timestamp",
        "name",
        "user_id",
        "session_id",
        "input",
        "output",
        "metadata",
        "tags",
        "public",
        "release",
        "version",
        "environment",
        "run_uuid",
        "state",
    ),
    "observations": (
        "project_id",
        "id",
        "trace_id",
        "type",
        "parent_observation_id",
        "name",
        "start_time",
        "end_time",
        "completion_start_time",
        "input",
        "output",
        "metadata",
        "level",
        "status_message",
        "version",
        "release",
        "environment",
        "model",
        "model_parameters",
        "usage_details",
        "cost_details",
        "cost_source",
        "total_cost",
        "prompt_name",
        "prompt_version",
        "experiment",
        "state",
    ),
    "scores": (
        "project_id",
        "id",
        "name",
        "data_type",
        "value",
        "string_value",
        "source",
        "trace_id",
        "observation_id",
        "session_id",
        "dataset_run_id",
        "comment",
        "metadata",
        "config_id",
        "queue_id",
        "environment",
        "timestamp",
        "state",
    ),
}


#: The columns every table's row type has after :data:`COLUMNS`, set by the database.
ROW_TAIL = ("created_at", "updated_at")
#: Columns added to a table since, after :data:`ROW_TAIL` in its row type.
ADDED: dict[str, tuple[str, ...]] = {"observations": ("model_id", "pricing_tier")}


def _insert_sql(table: Table) -> str:
    """One statement for all rows, sent as one array of the table's row type: encoding one
    array of rows costs the client far less than one array per column."""
    columns = COLUMNS[table] + ADDED.get(table, ())
    return (
        f"INSERT INTO {table} ({', '.join(columns)}) "
        f"SELECT {', '.join(f'u.{c}' for c in columns)} FROM unnest($1::{table}[]) AS u"
    )


def _upsert_sql(table: Table) -> str:
    updates = ", ".join(f"{c} = EXCLUDED.{c}" for c in COLUMNS[table][2:] + ADDED.get(table, ()))
    return (
        f"{_insert_sql(table)} "
        f"ON CONFLICT (project_id, id) DO UPDATE SET {updates}, updated_at = now()"
    )


_INSERT_NEW = {
    table: f"{_insert_sql(table)} ON CONFLICT (project_id, id) DO NOTHING RETURNING id"  # type: ignore[arg-type]
    for table in COLUMNS
}
_UPSERT = {table: _upsert_sql(table) for table in COLUMNS}  # type: ignore[arg-type]


async def lock_ids(conn: Connection, project_id: str, keys: Iterable[str]) -> None:
    """Serialize merges of the same ids across transactions (transaction-scoped locks, taken
    in one order)."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(h) FROM (SELECT DISTINCT hashtextextended($1 || '/' || k, 0)"
        " AS h FROM unnest($2::text[]) AS k ORDER BY h) AS ordered",
        project_id,
        sorted(set(keys)),
    )


#: Values a row holds exactly as its merge state does: the stored state leaves them out and
#: reading puts them back, so they are written once, not twice. Each column is NULL exactly
#: when the state has no such value, but ``metadata``, which is ``{}`` then and merges as no
#: metadata does.
_VERBATIM: dict[str, tuple[str, ...]] = {
    "traces": (
        "input", "output", "metadata", "name", "user_id", "session_id", "release", "version",
        "run_uuid",
    ),
    "observations": (
        "input", "output", "metadata", "trace_id", "parent_observation_id", "name",
        "status_message", "version", "release", "model", "prompt_name", "prompt_version",
    ),
    "scores": (
        "string_value", "trace_id", "observation_id", "session_id", "dataset_run_id", "comment",
        "config_id", "queue_id",
    ),
}  # fmt: skip


_LEFT_OUT = {table: frozenset(columns) for table, columns in _VERBATIM.items()}


def _stored_state(table: Table, state: dict[str, Any]) -> dict[str, Any]:
    left_out = _LEFT_OUT[table]
    return {**state, "v": {k: v for k, v in state["v"].items() if k not in left_out}}


async def states(
    conn: Connection, table: Table, project_id: str, ids: Sequence[str]
) -> dict[str, dict[str, Any]]:
    """The stored merge states of ``ids`` (absent ids are new), whole again."""
    verbatim = _VERBATIM[table]
    rows = await conn.fetch(
        f"SELECT {', '.join(('id', 'state', *verbatim))} FROM {table} "
        "WHERE project_id = $1 AND id = ANY($2::text[])",
        project_id,
        list(ids),
    )
    found = {}
    for row in rows:
        state = row["state"]
        values = {c: row[c] for c in verbatim if row[c] is not None}
        found[row["id"]] = {**state, "v": {**state["v"], **values}} if values else state
    return found


def _records(table: Table, rows: Sequence[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """``rows`` as tuples of the table's row type, their states without verbatim values."""
    columns, tail, added = COLUMNS[table][:-1], (None,) * len(ROW_TAIL), ADDED.get(table, ())
    return [
        (
            *[row[c] for c in columns],
            _stored_state(table, row["state"]),
            *tail,
            *[row[c] for c in added],
        )
        for row in rows
    ]


async def insert_new(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> set[str]:
    """Insert those of ``rows`` whose ids are not stored yet, in one statement; the ids it
    inserted. Sorted by id, two writers of overlapping ids wait on each other in one order."""
    if not rows:
        return set()
    ordered = sorted(rows, key=lambda row: row["id"])
    inserted = await conn.fetch(_INSERT_NEW[table], _records(table, ordered))
    return {row["id"] for row in inserted}


async def upsert(conn: Connection, table: Table, rows: Sequence[dict[str, Any]]) -> None:
    """Insert or replace ``rows`` (one per id) in one statement."""
    if rows:
        await conn.execute(_UPSERT[table], _records(table, rows))


async def upsert_sessions(
    conn: Connection, project_id: str, traces: Sequence[dict[str, Any]]
) -> None:
    """Sessions named by ``traces`` (rows), starting at their earliest trace; written in id
    order, so two writers of the same sessions wait on each other in one order."""
    found: dict[str, tuple[Any, str]] = {}
    for row in traces:
        session = row["session_id"]
        if session and (session not in found or row["timestamp"] < found[session][0]):
            found[session] = (row["timestamp"], row["environment"])
    if found:
        await conn.executemany(
            "INSERT INTO sessions (project_id, id, created_at, environment) VALUES ($1, $2, $3, $4)"
            " ON CONFLICT (project_id, id) DO UPDATE"
            " SET created_at = LEAST(sessions.created_at, EXCLUDED.created_at)",
            [(project_id, sid, at, env) for sid, (at, env) in sorted(found.items())],
        )


async def trace_exists(conn: Connection, project_id: str, trace_id: str) -> bool:
    found = await conn.fetchval(
        "SELECT true FROM traces WHERE project_id = $1 AND id = $2", project_id, trace_id
    )
    return bool(found)
