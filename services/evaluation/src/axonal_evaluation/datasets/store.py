"""SQL of the ``datasets`` and ``dataset_items`` tables (items: one row per version)."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from axonal_db import Connection
from axonal_events.datasets import (
    CreateDataset,
    Dataset,
    DatasetItem,
    ListDatasetItems,
    ListDatasets,
)

__all__ = [
    "close_version",
    "count_datasets",
    "count_items",
    "current_item",
    "find_dataset",
    "insert_version",
    "item_dataset",
    "items_by_id",
    "list_datasets",
    "list_items",
    "lock_item",
    "upsert_dataset",
]

_DATASET = (
    "id, project_id, name, description, metadata, input_schema, expected_output_schema, "
    "created_at, updated_at"
)
_ITEM = (
    "i.id, i.project_id, i.dataset_id, d.name AS dataset_name, i.status, i.input, "
    "i.expected_output, i.metadata, i.source_trace_id, i.source_observation_id, i.created_at, "
    "i.valid_from AS updated_at, i.valid_from AS version"
)


async def upsert_dataset(conn: Connection, request: CreateDataset) -> Dataset:
    """Create the dataset, or update the one of that name where the request gives a field."""
    row = await conn.fetchrow(
        f"INSERT INTO datasets (id, project_id, name, description, metadata, input_schema, "  # noqa: S608
        f"expected_output_schema) VALUES ($1, $2, $3, $4, $5, $6, $7) "
        f"ON CONFLICT (project_id, name) DO UPDATE SET "
        f"description = COALESCE(EXCLUDED.description, datasets.description), "
        f"metadata = COALESCE(EXCLUDED.metadata, datasets.metadata), "
        f"input_schema = COALESCE(EXCLUDED.input_schema, datasets.input_schema), "
        f"expected_output_schema = "
        f"COALESCE(EXCLUDED.expected_output_schema, datasets.expected_output_schema), "
        f"updated_at = now() RETURNING {_DATASET}",
        str(uuid.uuid4()),
        request.project_id,
        request.name,
        request.description,
        request.metadata,
        request.input_schema,
        request.expected_output_schema,
    )
    assert row is not None  # RETURNING of an upsert
    return Dataset.model_validate(dict(row))


async def find_dataset(
    conn: Connection,
    project_id: str,
    *,
    name: str | None = None,
    id: str | None = None,  # noqa: A002
) -> Dataset | None:
    row = await conn.fetchrow(
        f"SELECT {_DATASET} FROM datasets WHERE project_id = $1 "  # noqa: S608
        f"AND ($2::text IS NULL OR name = $2) AND ($3::text IS NULL OR id = $3)",
        project_id,
        name,
        id,
    )
    return Dataset.model_validate(dict(row)) if row else None


async def list_datasets(conn: Connection, request: ListDatasets) -> list[Dataset]:
    rows = await conn.fetch(
        f"SELECT {_DATASET} FROM datasets WHERE project_id = $1 "  # noqa: S608
        f"ORDER BY created_at DESC, id LIMIT $2 OFFSET $3",
        request.project_id,
        request.limit,
        (request.page - 1) * request.limit,
    )
    return [Dataset.model_validate(dict(r)) for r in rows]


async def count_datasets(conn: Connection, project_id: str) -> int:
    found: int = await conn.fetchval(
        "SELECT count(*) FROM datasets WHERE project_id = $1", project_id
    )
    return found


async def lock_item(conn: Connection, project_id: str, item_id: str) -> None:
    """Serialise the writes to one item until the transaction ends."""
    await conn.execute(
        "SELECT pg_advisory_xact_lock(hashtext($1), hashtext($2))", project_id, item_id
    )


async def current_item(conn: Connection, project_id: str, item_id: str) -> DatasetItem | None:
    """The item's current version, deleted or not: ``None`` if it was never written or is
    deleted (then ``deleted`` is what :func:`close_version` still closes)."""
    row = await conn.fetchrow(
        f"SELECT {_ITEM}, i.is_deleted FROM dataset_items i "  # noqa: S608
        f"JOIN datasets d ON d.id = i.dataset_id "
        f"WHERE i.project_id = $1 AND i.id = $2 AND i.valid_to IS NULL",
        project_id,
        item_id,
    )
    if row is None or row["is_deleted"]:
        return None
    fields = dict(row)
    fields.pop("is_deleted")
    return DatasetItem.model_validate(fields)


async def close_version(conn: Connection, project_id: str, item_id: str, at: datetime) -> datetime:
    """End the item's current version (deleted or not) at ``at``, or just after it began if
    that is later; when it ended (``at`` for a new item): the next version's start."""
    ended: datetime | None = await conn.fetchval(
        "UPDATE dataset_items SET valid_to = GREATEST($3, valid_from + interval '1 microsecond') "
        "WHERE project_id = $1 AND id = $2 AND valid_to IS NULL RETURNING valid_to",
        project_id,
        item_id,
        at,
    )
    return ended or at


async def item_dataset(conn: Connection, project_id: str, item_id: str) -> str | None:
    """The dataset the item id belongs to, by any of its versions."""
    found: str | None = await conn.fetchval(
        "SELECT dataset_id FROM dataset_items WHERE project_id = $1 AND id = $2 LIMIT 1",
        project_id,
        item_id,
    )
    return found


async def insert_version(
    conn: Connection,
    *,
    project_id: str,
    item_id: str,
    dataset_id: str,
    at: datetime,
    created_at: datetime,
    fields: dict[str, Any],
    deleted: bool = False,
) -> None:
    await conn.execute(
        "INSERT INTO dataset_items (project_id, id, dataset_id, valid_from, is_deleted, status, "
        "input, expected_output, metadata, source_trace_id, source_observation_id, created_at) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)",
        project_id,
        item_id,
        dataset_id,
        at,
        deleted,
        fields["status"],
        fields["input"],
        fields["expected_output"],
        fields["metadata"],
        fields["source_trace_id"],
        fields["source_observation_id"],
        created_at,
    )


def _items_where(request: ListDatasetItems) -> tuple[str, list[Any]]:
    args: list[Any] = [request.project_id]
    where = ["i.project_id = $1", "NOT i.is_deleted"]
    if request.version is None:
        where.append("i.valid_to IS NULL")
    else:
        args.append(request.version)
        where.append(
            f"i.valid_from <= ${len(args)} AND (i.valid_to IS NULL OR i.valid_to > ${len(args)})"
        )
    for column, value in (
        ("d.name", request.dataset_name),
        ("i.source_trace_id", request.source_trace_id),
        ("i.source_observation_id", request.source_observation_id),
    ):
        if value is not None:
            args.append(value)
            where.append(f"{column} = ${len(args)}")
    return " AND ".join(where), args


async def list_items(conn: Connection, request: ListDatasetItems) -> list[DatasetItem]:
    where, args = _items_where(request)
    rows = await conn.fetch(
        f"SELECT {_ITEM} FROM dataset_items i JOIN datasets d ON d.id = i.dataset_id "  # noqa: S608
        f"WHERE {where} ORDER BY i.created_at, i.id "
        f"LIMIT {request.limit} OFFSET {(request.page - 1) * request.limit}",
        *args,
    )
    return [DatasetItem.model_validate(dict(r)) for r in rows]


async def count_items(conn: Connection, request: ListDatasetItems) -> int:
    where, args = _items_where(request)
    found: int = await conn.fetchval(
        f"SELECT count(*) FROM dataset_items i JOIN datasets d ON d.id = i.dataset_id "  # noqa: S608
        f"WHERE {where}",
        *args,
    )
    return found


async def items_by_id(
    conn: Connection, project_id: str, item_ids: list[str]
) -> dict[str, DatasetItem]:
    """The current versions of these items, by id."""
    rows = await conn.fetch(
        f"SELECT {_ITEM} FROM dataset_items i JOIN datasets d ON d.id = i.dataset_id "  # noqa: S608
        f"WHERE i.project_id = $1 AND i.id = ANY($2) "
        f"AND i.valid_to IS NULL AND NOT i.is_deleted",
        project_id,
        item_ids,
    )
    return {r["id"]: DatasetItem.model_validate(dict(r)) for r in rows}
