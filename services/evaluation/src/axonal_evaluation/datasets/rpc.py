"""Request/reply: datasets, their items (versioned), dataset runs and their items,
experiments, and runs compared."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from axonal_bus.errors import Invalid, NotFound
from axonal_bus.outbox import PendingEvents
from axonal_db import Connection, transaction
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import queries, store, versions
from axonal_evaluation.datasets.comparison import compare_runs
from axonal_evaluation.domain.experiments import decode_cursor, encode_cursor, run_item_id
from axonal_events.datasets import (
    CreateDataset,
    CreateRunItem,
    Dataset,
    DatasetItem,
    DatasetItemPage,
    DatasetPage,
    DatasetRun,
    DatasetRunPage,
    DatasetRunWithItems,
    Deleted,
    DeleteDatasetItem,
    DeleteDatasetRun,
    ExperimentItemPage,
    ExperimentPage,
    GetDataset,
    GetDatasetItem,
    GetDatasetRun,
    ListDatasetItems,
    ListDatasetRuns,
    ListDatasets,
    ListExperimentItems,
    ListExperiments,
    ListRunItems,
    RunItem,
    RunItemPage,
    UpsertDatasetItem,
)
from axonal_events.rpcs import Evaluation
from axonal_events.trace_reads import PageMeta
from axonal_traces.experiments import experiment_id

__all__ = [
    "create_dataset",
    "create_run_item",
    "delete_dataset_item",
    "delete_dataset_run",
    "get_dataset",
    "get_dataset_item",
    "get_dataset_run",
    "list_dataset_items",
    "list_dataset_runs",
    "list_datasets",
    "list_experiment_items",
    "list_experiments",
    "list_run_items",
    "register",
    "upsert_dataset_item",
]


async def _dataset(conn: Connection, project_id: str, name: str) -> Dataset:
    found = await store.find_dataset(conn, project_id, name=name)
    if found is None:
        raise NotFound(f"Dataset not found: '{name}'")
    return found


async def _run(conn: Connection, project_id: str, dataset_name: str, run_name: str) -> DatasetRun:
    dataset = await _dataset(conn, project_id, dataset_name)
    found = await queries.find_run(conn, project_id, dataset_id=dataset.id, name=run_name)
    if found is None:
        raise NotFound(f"Dataset run not found: '{run_name}' of dataset '{dataset_name}'")
    return found


async def create_dataset(ctx: Context, request: CreateDataset) -> Dataset:
    async with transaction(ctx.pool) as conn:
        return await versions.create_dataset(conn, request)


async def get_dataset(ctx: Context, request: GetDataset) -> Dataset:
    async with ctx.pool.acquire() as conn:
        return await _dataset(conn, request.project_id, request.name)


async def list_datasets(ctx: Context, request: ListDatasets) -> DatasetPage:
    async with ctx.pool.acquire() as conn:
        data = await store.list_datasets(conn, request)
        total = await store.count_datasets(conn, request.project_id)
    return DatasetPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def upsert_dataset_item(ctx: Context, request: UpsertDatasetItem) -> DatasetItem:
    async with transaction(ctx.pool) as conn:
        return await versions.upsert_item(conn, request, request.id or str(uuid.uuid4()))


async def get_dataset_item(ctx: Context, request: GetDatasetItem) -> DatasetItem:
    async with ctx.pool.acquire() as conn:
        found = await store.current_item(conn, request.project_id, request.id)
    if found is None:
        raise NotFound(f"Dataset item not found: '{request.id}'")
    return found


async def list_dataset_items(ctx: Context, request: ListDatasetItems) -> DatasetItemPage:
    async with ctx.pool.acquire() as conn:
        if request.dataset_name is not None:
            await _dataset(conn, request.project_id, request.dataset_name)
        data = await store.list_items(conn, request)
        total = await store.count_items(conn, request)
    return DatasetItemPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def delete_dataset_item(ctx: Context, request: DeleteDatasetItem) -> Deleted:
    async with transaction(ctx.pool) as conn:
        await versions.delete_item(conn, request)
    return Deleted(message="Dataset item successfully deleted")


async def create_run_item(ctx: Context, request: CreateRunItem) -> RunItem:
    """Link a dataset item to a trace in the named run of the item's dataset (the run's id is
    the one the Langfuse SDK derives)."""
    if request.trace_id is None:
        raise Invalid("traceId: a dataset run item needs the trace that ran it")
    now = datetime.now(UTC)
    pending = PendingEvents(ctx.subjects)
    async with transaction(ctx.pool) as conn:
        item = await store.current_item(conn, request.project_id, request.dataset_item_id)
        if item is None:
            raise NotFound(f"Dataset item not found: '{request.dataset_item_id}'")
        run_id = experiment_id(request.project_id, item.dataset_id, request.run_name)
        await queries.upsert_run(
            conn,
            run_id=run_id,
            project_id=request.project_id,
            dataset_id=item.dataset_id,
            name=request.run_name,
            description=request.run_description,
            metadata=request.metadata,
        )
        created = request.created_at or now
        link = RunItem(
            id=run_item_id(run_id, item.id, request.trace_id),
            project_id=request.project_id,
            dataset_run_id=run_id,
            dataset_run_name=request.run_name,
            dataset_item_id=item.id,
            dataset_id=item.dataset_id,
            trace_id=request.trace_id,
            observation_id=request.observation_id,
            dataset_version=request.dataset_version,
            expected_output=item.expected_output,
            start_time=created,
            created_at=created,
            updated_at=now,
        )
        await queries.upsert_run_item(conn, link)
        stored = await queries.run_item(conn, link.id)
        await ctx.link_items(conn, pending, request.project_id, item.dataset_id, [link])
    await ctx.publish_committed(pending)
    assert stored is not None  # just written in this transaction
    return stored


async def list_run_items(ctx: Context, request: ListRunItems) -> RunItemPage:
    async with ctx.pool.acquire() as conn:
        dataset = await store.find_dataset(conn, request.project_id, id=request.dataset_id)
        if dataset is None:
            raise NotFound(f"Dataset not found: '{request.dataset_id}'")
        run = await queries.find_run(
            conn, request.project_id, dataset_id=dataset.id, name=request.run_name
        )
        if run is None:
            raise NotFound(f"Dataset run not found: '{request.run_name}'")
        data = await queries.run_items(conn, run.id, request.page, request.limit)
        total = await queries.count_run_items(conn, run.id)
    return RunItemPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def list_dataset_runs(ctx: Context, request: ListDatasetRuns) -> DatasetRunPage:
    async with ctx.pool.acquire() as conn:
        dataset = await _dataset(conn, request.project_id, request.dataset_name)
        data = await queries.list_runs(
            conn, request.project_id, dataset.id, request.page, request.limit
        )
        total = await queries.count_runs(conn, request.project_id, dataset.id)
    return DatasetRunPage(data=data, meta=PageMeta.of(request.page, request.limit, total))


async def get_dataset_run(ctx: Context, request: GetDatasetRun) -> DatasetRunWithItems:
    async with ctx.pool.acquire() as conn:
        run = await _run(conn, request.project_id, request.dataset_name, request.run_name)
        return DatasetRunWithItems(run=run, items=await queries.run_items(conn, run.id))


async def delete_dataset_run(ctx: Context, request: DeleteDatasetRun) -> Deleted:
    async with transaction(ctx.pool) as conn:
        run = await _run(conn, request.project_id, request.dataset_name, request.run_name)
        await queries.delete_run(conn, run.id)
    return Deleted(message="Dataset run successfully deleted")


def _offset(cursor: str | None) -> int:
    try:
        return decode_cursor(cursor)
    except ValueError as exc:
        raise Invalid(str(exc)) from None


async def list_experiments(ctx: Context, request: ListExperiments) -> ExperimentPage:
    offset = _offset(request.cursor)
    async with ctx.pool.acquire() as conn:
        found = await queries.experiments(conn, request, offset)
    more = len(found) > request.limit
    cursor = encode_cursor(offset + request.limit) if more else None
    return ExperimentPage(data=found[: request.limit], cursor=cursor)


async def list_experiment_items(ctx: Context, request: ListExperimentItems) -> ExperimentItemPage:
    offset = _offset(request.cursor)
    async with ctx.pool.acquire() as conn:
        found = await queries.experiment_items(conn, request, offset)
        data = found[: request.limit]
        runs = await queries.runs_by_id(
            conn, request.project_id, sorted({i.dataset_run_id for i in data})
        )
    cursor = encode_cursor(offset + request.limit) if len(found) > request.limit else None
    return ExperimentItemPage(data=data, runs=list(runs.values()), cursor=cursor)


def register(ctx: Context) -> None:
    ctx.serve(Evaluation.create_dataset, create_dataset)
    ctx.serve(Evaluation.get_dataset, get_dataset)
    ctx.serve(Evaluation.list_datasets, list_datasets)
    ctx.serve(Evaluation.upsert_dataset_item, upsert_dataset_item)
    ctx.serve(Evaluation.get_dataset_item, get_dataset_item)
    ctx.serve(Evaluation.list_dataset_items, list_dataset_items)
    ctx.serve(Evaluation.delete_dataset_item, delete_dataset_item)
    ctx.serve(Evaluation.create_run_item, create_run_item)
    ctx.serve(Evaluation.list_run_items, list_run_items)
    ctx.serve(Evaluation.list_dataset_runs, list_dataset_runs)
    ctx.serve(Evaluation.get_dataset_run, get_dataset_run)
    ctx.serve(Evaluation.delete_dataset_run, delete_dataset_run)
    ctx.serve(Evaluation.list_experiments, list_experiments)
    ctx.serve(Evaluation.list_experiment_items, list_experiment_items)
    ctx.serve(Evaluation.compare_runs, compare_runs)
