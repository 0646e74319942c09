"""``/api/v1/{owner}/{project}/datasets`` and ``.../experiments``: datasets, their items and
runs, and runs compared, with the platform's auth (the CLI's, the UI's), in Axonal's shapes.

The evaluation service's RPCs, which the Langfuse-compatible ``/api/public`` routes call too;
a comparison reads each run item's trace (output, scores, latency, cost) from tracking.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query
from pydantic import ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events.datasets import (
    CompareRuns,
    DatasetItemPage,
    DatasetPage,
    DatasetRunPage,
    DatasetRunWithItems,
    ExperimentComparison,
    GetDatasetRun,
    ListDatasetItems,
    ListDatasetRuns,
    ListDatasets,
)
from axonal_events.rpcs import Evaluation
from axonal_traces.values import error_reason

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}", tags=["datasets"], responses=ERRORS)

T = TypeVar("T")
Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=1000)]


def _valid(build: type[T], **fields: Any) -> T:
    try:
        return build(**fields)
    except ValidationError as exc:
        raise ApiError(400, "invalid", error_reason(exc)) from None


@router.get("/datasets", summary="The project's datasets, the newest first")
async def list_datasets(
    gw: GatewayDep, owner: Owner, project: Project, page: Page = 1, limit: Limit = 50
) -> DatasetPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListDatasets(project_id=project_id, page=page, limit=limit)
    return await gw.call(Evaluation.list_datasets, query)


@router.get("/datasets/{name:path}/items", summary="A dataset's items, now or as of `version`")
async def list_dataset_items(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: str,
    version: datetime | None = None,
    page: Page = 1,
    limit: Limit = 50,
) -> DatasetItemPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListDatasetItems(
        project_id=project_id, dataset_name=name, version=version, page=page, limit=limit
    )
    return await gw.call(Evaluation.list_dataset_items, query)


@router.get("/datasets/{name:path}/runs/{run_name}", summary="A run of a dataset, its items")
async def get_dataset_run(
    gw: GatewayDep, owner: Owner, project: Project, name: str, run_name: str
) -> DatasetRunWithItems:
    project_id = await project_id_of(gw, owner, project)
    query = GetDatasetRun(project_id=project_id, dataset_name=name, run_name=run_name)
    return await gw.call(Evaluation.get_dataset_run, query)


@router.get("/datasets/{name:path}/runs", summary="A dataset's runs (experiments)")
async def list_dataset_runs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: str,
    page: Page = 1,
    limit: Limit = 50,
) -> DatasetRunPage:
    project_id = await project_id_of(gw, owner, project)
    query = ListDatasetRuns(project_id=project_id, dataset_name=name, page=page, limit=limit)
    return await gw.call(Evaluation.list_dataset_runs, query)


@router.get(
    "/experiments/compare",
    summary="Two or more runs side by side: per item, outputs, scores, latency and cost",
)
async def compare_runs(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    run: Annotated[list[str], Query(description="Run ids, or names within `dataset`.")],
    dataset: str | None = None,
) -> ExperimentComparison:
    project_id = await project_id_of(gw, owner, project)
    query = _valid(CompareRuns, project_id=project_id, runs=run, dataset_name=dataset)
    return await gw.call(Evaluation.compare_runs, query)
