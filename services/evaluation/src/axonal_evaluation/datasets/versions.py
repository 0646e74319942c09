"""Writes of datasets and item versions: schemas checked, each write of an item a new version
(the previous one kept, ended when the new one starts), a deletion a last version."""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection
from axonal_evaluation.datasets import store
from axonal_evaluation.domain.datasets import item_problem, next_version, schema_problem
from axonal_events.datasets import (
    CreateDataset,
    Dataset,
    DatasetItem,
    DeleteDatasetItem,
    ListDatasetItems,
    UpsertDatasetItem,
)

__all__ = ["create_dataset", "delete_item", "upsert_item"]

_CHECKED_PAGE = 1000


async def _check_existing(conn: Connection, dataset: Dataset) -> None:
    """Every current item of the dataset matches its schemas, else :class:`Invalid`."""
    page = 1
    while True:
        request = ListDatasetItems(
            project_id=dataset.project_id, dataset_name=dataset.name, page=page, limit=_CHECKED_PAGE
        )
        items = await store.list_items(conn, request)
        for item in items:
            fields = {"input": item.input, "expected_output": item.expected_output}
            problem = item_problem(fields, dataset.input_schema, dataset.expected_output_schema)
            if problem:
                raise Invalid(f"dataset item {item.id} does not match the new schema: {problem}")
        if len(items) < _CHECKED_PAGE:
            return
        page += 1


async def create_dataset(conn: Connection, request: CreateDataset) -> Dataset:
    for name, schema in (
        ("inputSchema", request.input_schema),
        ("expectedOutputSchema", request.expected_output_schema),
    ):
        if problem := schema_problem(name, schema):
            raise Invalid(problem)
    dataset = await store.upsert_dataset(conn, request)
    if request.input_schema is not None or request.expected_output_schema is not None:
        await _check_existing(conn, dataset)
    return dataset


async def upsert_item(conn: Connection, request: UpsertDatasetItem, item_id: str) -> DatasetItem:
    """Write the next version of ``item_id`` (the first if it is new)."""
    dataset = await store.find_dataset(conn, request.project_id, name=request.dataset_name)
    if dataset is None:
        raise NotFound(f"Dataset not found: '{request.dataset_name}'")
    await store.lock_item(conn, request.project_id, item_id)
    owner = await store.item_dataset(conn, request.project_id, item_id)
    if owner is not None and owner != dataset.id:
        raise Invalid(f"id: dataset item {item_id} belongs to another dataset")
    current = await store.current_item(conn, request.project_id, item_id)
    fields = next_version(current, request)
    if problem := item_problem(fields, dataset.input_schema, dataset.expected_output_schema):
        raise Invalid(problem)
    at = await store.close_version(conn, request.project_id, item_id, datetime.now(UTC))
    await store.insert_version(
        conn,
        project_id=request.project_id,
        item_id=item_id,
        dataset_id=dataset.id,
        at=at,
        created_at=current.created_at if current else at,
        fields=fields,
    )
    written = await store.current_item(conn, request.project_id, item_id)
    assert written is not None  # just written in this transaction
    return written


async def delete_item(conn: Connection, request: DeleteDatasetItem) -> None:
    """Delete the item from now on: reads as of an earlier time still see it."""
    await store.lock_item(conn, request.project_id, request.id)
    current = await store.current_item(conn, request.project_id, request.id)
    if current is None:
        raise NotFound(f"Dataset item not found: '{request.id}'")
    at = await store.close_version(conn, request.project_id, request.id, datetime.now(UTC))
    fields = current.model_dump(include={"status", "input", "expected_output", "metadata",
                                         "source_trace_id", "source_observation_id"})  # fmt: skip
    await store.insert_version(
        conn,
        project_id=request.project_id,
        item_id=request.id,
        dataset_id=current.dataset_id,
        at=at,
        created_at=current.created_at,
        fields=fields,
        deleted=True,
    )
