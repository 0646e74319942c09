"""SQL of the ``dataset_runs`` and ``dataset_run_items`` tables."""

from __future__ import annotations

from typing import Any

from axonal_db import Connection
from axonal_events.datasets import (
    DatasetRun,
    ExperimentSummary,
    ListExperimentItems,
    ListExperiments,
    RunItem,
)

__all__ = [
    "count_run_items",
    "count_runs",
    "delete_run",
    "experiment_items",
    "experiments",
    "find_run",
    "list_runs",
    "run_item",
    "run_items",
    "runs_by_id",
    "upsert_run",
    "upsert_run_item",
]

_RUN = (
    "r.id, r.project_id, r.name, r.description, r.metadata, r.dataset_id, "
    "d.name AS dataset_name, r.created_at, r.updated_at"
)
_RUNS = "dataset_runs r LEFT JOIN datasets d ON d.id = r.dataset_id"
_ITEM = (
    "i.id, i.project_id, i.run_id AS dataset_run_id, r.name AS dataset_run_name, "
    "i.dataset_item_id, r.dataset_id, i.trace_id, i.observation_id, i.dataset_version, "
    "i.item_metadata, i.expected_output, i.start_time, i.end_time, i.level, i.environment, "
    "i.created_at, i.updated_at"
)
_ITEMS = "dataset_run_items i JOIN dataset_runs r ON r.id = i.run_id"


_SUMMARY = {"start_time", "end_time", "item_count"}


def _run(row: Any) -> DatasetRun:
    return DatasetRun.model_validate(dict(row))


async def upsert_run(
    conn: Connection,
    *,
    run_id: str,
    project_id: str,
    dataset_id: str | None,
    name: str,
    description: str | None,
    metadata: Any,
) -> None:
    """Create the run, or keep it and fill in what it lacked."""
    await conn.execute(
        "INSERT INTO dataset_runs (id, project_id, dataset_id, name, description, metadata) "
        "VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO UPDATE SET "
        "description = COALESCE(EXCLUDED.description, dataset_runs.description), "
        "metadata = COALESCE(EXCLUDED.metadata, dataset_runs.metadata), updated_at = now() "
        "WHERE dataset_runs.project_id = EXCLUDED.project_id",
        run_id,
        project_id,
        dataset_id,
        name,
        description,
        metadata,
    )


async def upsert_run_item(conn: Connection, item: RunItem) -> None:
    """Store the link once per run, dataset item and trace; a later write refreshes it."""
    await conn.execute(
        "INSERT INTO dataset_run_items (id, project_id, run_id, dataset_item_id, trace_id, "
        "observation_id, dataset_version, item_metadata, expected_output, start_time, end_time, "
        "level, environment, created_at, updated_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $14) "
        "ON CONFLICT (run_id, dataset_item_id, trace_id) DO UPDATE SET "
        "observation_id = COALESCE(EXCLUDED.observation_id, dataset_run_items.observation_id), "
        "dataset_version = COALESCE(EXCLUDED.dataset_version, dataset_run_items.dataset_version), "
        "item_metadata = COALESCE(EXCLUDED.item_metadata, dataset_run_items.item_metadata), "
        "expected_output = COALESCE(EXCLUDED.expected_output, dataset_run_items.expected_output), "
        "start_time = LEAST(EXCLUDED.start_time, dataset_run_items.start_time), "
        "end_time = GREATEST(EXCLUDED.end_time, dataset_run_items.end_time), "
        "level = EXCLUDED.level, environment = EXCLUDED.environment, updated_at = now()",
        item.id,
        item.project_id,
        item.dataset_run_id,
        item.dataset_item_id,
        item.trace_id,
        item.observation_id,
        item.dataset_version,
        item.item_metadata,
        item.expected_output,
        item.start_time,
        item.end_time,
        item.level,
        item.environment,
        item.created_at,
    )


async def find_run(
    conn: Connection, project_id: str, *, dataset_id: str | None, name: str
) -> DatasetRun | None:
    row = await conn.fetchrow(
        f"SELECT {_RUN} FROM {_RUNS} WHERE r.project_id = $1 "  # noqa: S608
        f"AND r.dataset_id IS NOT DISTINCT FROM $2 AND r.name = $3",
        project_id,
        dataset_id,
        name,
    )
    return _run(row) if row else None


async def runs_by_id(conn: Connection, project_id: str, ids: list[str]) -> dict[str, DatasetRun]:
    rows = await conn.fetch(
        f"SELECT {_RUN} FROM {_RUNS} WHERE r.project_id = $1 AND r.id = ANY($2)",  # noqa: S608
        project_id,
        ids,
    )
    return {r["id"]: _run(r) for r in rows}


async def list_runs(
    conn: Connection, project_id: str, dataset_id: str, page: int, limit: int
) -> list[DatasetRun]:
    rows = await conn.fetch(
        f"SELECT {_RUN} FROM {_RUNS} WHERE r.project_id = $1 AND r.dataset_id = $2 "  # noqa: S608
        f"ORDER BY r.created_at DESC, r.id LIMIT $3 OFFSET $4",
        project_id,
        dataset_id,
        limit,
        (page - 1) * limit,
    )
    return [_run(r) for r in rows]


async def count_runs(conn: Connection, project_id: str, dataset_id: str) -> int:
    found: int = await conn.fetchval(
        "SELECT count(*) FROM dataset_runs WHERE project_id = $1 AND dataset_id = $2",
        project_id,
        dataset_id,
    )
    return found


async def run_items(
    conn: Connection, run_id: str, page: int = 1, limit: int | None = None
) -> list[RunItem]:
    rows = await conn.fetch(
        f"SELECT {_ITEM} FROM {_ITEMS} WHERE i.run_id = $1 "  # noqa: S608
        f"ORDER BY i.created_at, i.id LIMIT $2 OFFSET $3",
        run_id,
        limit,
        (page - 1) * (limit or 0),
    )
    return [RunItem.model_validate(dict(r)) for r in rows]


async def run_item(conn: Connection, item_id: str) -> RunItem | None:
    row = await conn.fetchrow(f"SELECT {_ITEM} FROM {_ITEMS} WHERE i.id = $1", item_id)  # noqa: S608
    return RunItem.model_validate(dict(row)) if row else None


async def count_run_items(conn: Connection, run_id: str) -> int:
    found: int = await conn.fetchval(
        "SELECT count(*) FROM dataset_run_items WHERE run_id = $1", run_id
    )
    return found


async def delete_run(conn: Connection, run_id: str) -> None:
    await conn.execute("DELETE FROM dataset_runs WHERE id = $1", run_id)


def _window(
    request: ListExperiments | ListExperimentItems, args: list[Any], where: list[str]
) -> None:
    args.extend([request.project_id, request.from_start_time])
    where.extend(["i.project_id = $1", "i.start_time >= $2"])
    if request.to_start_time is not None:
        args.append(request.to_start_time)
        where.append(f"i.start_time < ${len(args)}")
    if request.dataset_id is not None:
        args.append(request.dataset_id)
        where.append(f"r.dataset_id = ${len(args)}")


async def experiments(
    conn: Connection, request: ListExperiments, offset: int
) -> list[ExperimentSummary]:
    """Experiments with items in the window, each over those items only, the newest first."""
    args: list[Any] = []
    where: list[str] = []
    _window(request, args, where)
    for column, value in (("r.id", request.id), ("r.name", request.name)):
        if value is not None:
            args.append(value)
            where.append(f"{column} = ${len(args)}")
    rows = await conn.fetch(
        f"SELECT {_RUN}, min(i.start_time) AS start_time, "  # noqa: S608
        f"max(COALESCE(i.end_time, i.start_time)) AS end_time, count(*) AS item_count "
        f"FROM {_ITEMS} LEFT JOIN datasets d ON d.id = r.dataset_id WHERE {' AND '.join(where)} "
        f"GROUP BY r.id, d.name ORDER BY min(i.start_time) DESC, r.id "
        f"LIMIT {request.limit + 1} OFFSET {offset}",
        *args,
    )
    return [
        ExperimentSummary(
            run=_run({k: v for k, v in dict(r).items() if k not in _SUMMARY}),
            start_time=r["start_time"],
            end_time=r["end_time"],
            item_count=r["item_count"],
        )
        for r in rows
    ]


async def experiment_items(
    conn: Connection, request: ListExperimentItems, offset: int
) -> list[RunItem]:
    """Items started in the window, the newest first (one more than the limit: is there
    another page)."""
    args: list[Any] = []
    where: list[str] = []
    _window(request, args, where)
    for column, value in (
        ("r.id", request.experiment_id),
        ("r.name", request.experiment_name),
        ("i.dataset_item_id", request.experiment_item_id),
    ):
        if value is not None:
            args.append(value)
            where.append(f"{column} = ${len(args)}")
    rows = await conn.fetch(
        f"SELECT {_ITEM} FROM {_ITEMS} WHERE {' AND '.join(where)} "  # noqa: S608
        f"ORDER BY i.start_time DESC, i.id LIMIT {request.limit + 1} OFFSET {offset}",
        *args,
    )
    return [RunItem.model_validate(dict(r)) for r in rows]
