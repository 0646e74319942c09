"""Two or more runs side by side: per dataset item, each run's output, scores, latency and
cost, read from the tracking service."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import queries, store
from axonal_evaluation.datasets.reads import trace_details
from axonal_evaluation.domain.experiments import compare
from axonal_events.datasets import CompareRuns, DatasetRun, ExperimentComparison

__all__ = ["compare_runs"]


async def compare_runs(ctx: Context, request: CompareRuns) -> ExperimentComparison:
    async with ctx.pool.acquire() as conn:
        dataset_id = None
        if request.dataset_name is not None:
            dataset = await store.find_dataset(conn, request.project_id, name=request.dataset_name)
            if dataset is None:
                raise NotFound(f"Dataset not found: '{request.dataset_name}'")
            dataset_id = dataset.id
        by_id = await queries.runs_by_id(conn, request.project_id, request.runs)
        runs: list[DatasetRun] = []
        for ref in request.runs:
            run = by_id.get(ref)
            if run is None and dataset_id is not None:
                run = await queries.find_run(
                    conn, request.project_id, dataset_id=dataset_id, name=ref
                )
            if run is None:
                raise NotFound(f"runs: no run '{ref}'")
            runs.append(run)
        items = {run.id: await queries.run_items(conn, run.id) for run in runs}
        item_ids = [i.dataset_item_id for found in items.values() for i in found]
        dataset_items = await store.items_by_id(conn, request.project_id, item_ids)
    traces = [i.trace_id for found in items.values() for i in found]
    details = await trace_details(ctx, request.project_id, traces)
    return compare(runs, items, dataset_items, details)
