"""Langfuse-compatible dataset runs and experiments for the key's project: the older
``/api/public/datasets/{name}/runs...`` and ``/api/public/dataset-run-items``, and the cursor
pages of ``/api/public/experiments`` and ``/api/public/experiment-items``.

A run is an experiment: the Langfuse SDK's ``run_experiment`` links its traces to the run by
span attributes, and the evaluation service stores each link as a run item. Outputs and
scores (``fields=io,scores``) are read from the traces, over the tracking service's RPCs.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Annotated, Any

from fastapi import APIRouter, Query
from pydantic import ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.gateway import Gateway
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep, PublicError
from axonal_api.public_bodies import Camel, CursorMeta, Paged, PageInfo
from axonal_api.public_query import refuse_filter
from axonal_api.routes.public_datasets import Body, DeletedResponse, Limit, Page, invalid
from axonal_api.scores_v3 import LangfuseScoreV3, score_groups
from axonal_bus.errors import RemoteError
from axonal_events.datasets import (
    CreateRunItem,
    DatasetRun,
    DeleteDatasetRun,
    GetDatasetRun,
    ListDatasetRuns,
    ListExperimentItems,
    ListExperiments,
    ListRunItems,
    RunItem,
)
from axonal_events.rpcs import Evaluation, Tracking
from axonal_events.trace_reads import GetTrace, ListScores, TraceDetail

__all__ = ["router"]

router = APIRouter(prefix="/api/public", tags=["datasets"], responses=READ_RESPONSES)

Text = Annotated[str | None, Query(max_length=1000)]
_PARALLEL = 8
_EXPERIMENT_FIELDS = {"metadata", "scores"}
_ITEM_FIELDS = {"dataset", "io", "metadata", "itemMetadata", "experimentMetadata", "scores"}


class CreateRunItemBody(Body):
    """Langfuse's ``CreateDatasetRunItemRequest``."""

    run_name: str
    run_description: str | None = None
    metadata: Any = None
    dataset_item_id: str
    observation_id: str | None = None
    trace_id: str | None = None
    dataset_version: datetime | None = None
    created_at: datetime | None = None


class LangfuseDatasetRun(Camel):
    """Langfuse's ``DatasetRun``."""

    id: str
    name: str
    description: str | None = None
    metadata: Any = None
    dataset_id: str | None = None
    dataset_name: str | None = None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, run: DatasetRun) -> LangfuseDatasetRun:
        return cls.model_validate(run.model_dump(exclude={"project_id"}))


class LangfuseDatasetRunItem(Camel):
    """Langfuse's ``DatasetRunItem``."""

    id: str
    dataset_run_id: str
    dataset_run_name: str
    dataset_item_id: str
    trace_id: str
    observation_id: str | None = None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, item: RunItem) -> LangfuseDatasetRunItem:
        return cls.model_validate(item.model_dump(include=set(cls.model_fields)))


class LangfuseDatasetRunWithItems(LangfuseDatasetRun):
    dataset_run_items: list[LangfuseDatasetRunItem]


class LangfuseExperimentRun(Camel):
    """Langfuse's ``Experiment`` (of ``/experiments``)."""

    id: str
    name: str
    description: str | None = None
    start_time: datetime
    end_time: datetime
    item_count: int
    dataset_id: str | None = None
    metadata: dict[str, Any] | None = None
    scores: list[LangfuseScoreV3] | None = None


class LangfuseExperimentItem(Camel):
    """Langfuse's ``ExperimentItem`` (of ``/experiment-items``); ``fields`` adds groups."""

    id: str
    trace_id: str
    start_time: datetime
    end_time: datetime | None = None
    level: str
    environment: str
    experiment_id: str
    experiment_name: str
    experiment_item_id: str
    experiment_dataset_id: str | None = None
    experiment_item_version: datetime | None = None
    input: Any = None
    output: Any = None
    expected_output: Any = None
    metadata: dict[str, Any] | None = None
    experiment_item_metadata: dict[str, Any] | None = None
    experiment_metadata: dict[str, Any] | None = None
    experiment_description: str | None = None
    scores: list[LangfuseScoreV3] | None = None


class ExperimentsMeta(CursorMeta):
    pass


class Experiments(Camel):
    data: list[LangfuseExperimentRun]
    meta: ExperimentsMeta


class ExperimentItems(Camel):
    data: list[LangfuseExperimentItem]
    meta: ExperimentsMeta


def _fields(text: str | None, known: set[str]) -> set[str]:
    asked = {f.strip() for f in (text or "").split(",") if f.strip()}
    if unknown := asked - known - {"core"}:
        message = f"fields: unknown {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}"
        raise PublicError(400, message, "InvalidRequestError")
    return asked


def _dict(value: Any) -> dict[str, Any] | None:
    return value if isinstance(value, dict) else None


@router.post("/dataset-run-items", summary="Link a dataset item to a trace in a run")
async def create_run_item(
    gw: GatewayDep, project: KeyProjectDep, body: CreateRunItemBody
) -> LangfuseDatasetRunItem:
    try:
        request = CreateRunItem(project_id=project.id, **body.model_dump())
    except ValidationError as exc:
        raise invalid(exc) from None
    return LangfuseDatasetRunItem.of(await gw.call(Evaluation.create_run_item, request))


@router.get("/dataset-run-items", summary="The items of a run")
async def list_run_items(
    gw: GatewayDep,
    project: KeyProjectDep,
    datasetId: str,  # noqa: N803
    runName: str,  # noqa: N803
    page: Page = 1,
    limit: Limit = 50,
) -> Paged[LangfuseDatasetRunItem]:
    query = ListRunItems(
        project_id=project.id, dataset_id=datasetId, run_name=runName, page=page, limit=limit
    )
    found = await gw.call(Evaluation.list_run_items, query)
    data = [LangfuseDatasetRunItem.of(i) for i in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.get("/datasets/{name:path}/runs/{run_name}", summary="A run with its items")
async def get_dataset_run(
    gw: GatewayDep, project: KeyProjectDep, name: str, run_name: str
) -> LangfuseDatasetRunWithItems:
    query = GetDatasetRun(project_id=project.id, dataset_name=name, run_name=run_name)
    found = await gw.call(Evaluation.get_dataset_run, query)
    items = [LangfuseDatasetRunItem.of(i) for i in found.items]
    run = LangfuseDatasetRun.of(found.run).model_dump()
    return LangfuseDatasetRunWithItems(**run, dataset_run_items=items)


@router.delete("/datasets/{name:path}/runs/{run_name}", summary="Delete a run and its items")
async def delete_dataset_run(
    gw: GatewayDep, project: KeyProjectDep, name: str, run_name: str
) -> DeletedResponse:
    query = DeleteDatasetRun(project_id=project.id, dataset_name=name, run_name=run_name)
    found = await gw.call(Evaluation.delete_dataset_run, query)
    return DeletedResponse(message=found.message)


@router.get("/datasets/{name:path}/runs", summary="A dataset's runs, the newest first")
async def list_dataset_runs(
    gw: GatewayDep, project: KeyProjectDep, name: str, page: Page = 1, limit: Limit = 50
) -> Paged[LangfuseDatasetRun]:
    query = ListDatasetRuns(project_id=project.id, dataset_name=name, page=page, limit=limit)
    found = await gw.call(Evaluation.list_dataset_runs, query)
    return Paged(data=[LangfuseDatasetRun.of(r) for r in found.data], meta=PageInfo.of(found.meta))


async def _run_scores(
    gw: Gateway, project_id: str, run_ids: list[str], limit: int
) -> dict[str, list[LangfuseScoreV3]]:
    if not run_ids:
        return {}
    query = ListScores(project_id=project_id, dataset_run_id=run_ids, limit=1000)
    found = await gw.call(Tracking.list_scores, query)
    groups = score_groups(None)
    scores: dict[str, list[LangfuseScoreV3]] = {}
    for score in found.data:
        if score.dataset_run_id is not None:
            scores.setdefault(score.dataset_run_id, []).append(LangfuseScoreV3.of(score, groups))
    return {run: found[:limit] for run, found in scores.items()}


@router.get(
    "/experiments",
    summary="Experiments (dataset runs) with items in the window",
    response_model_exclude_none=True,
)
async def list_experiments(
    gw: GatewayDep,
    project: KeyProjectDep,
    fromStartTime: datetime,  # noqa: N803
    toStartTime: datetime | None = None,  # noqa: N803
    fields: Text = None,
    limit: Limit = 50,
    scoreLimit: Annotated[int, Query(ge=0, le=1000)] = 100,  # noqa: N803
    cursor: Text = None,
    id: Text = None,  # noqa: A002
    name: Text = None,
    datasetId: Text = None,  # noqa: N803
    filter: Text = None,  # noqa: A002
) -> Experiments:
    refuse_filter(filter)
    asked = _fields(fields, _EXPERIMENT_FIELDS)
    query = ListExperiments(
        project_id=project.id,
        from_start_time=fromStartTime,
        to_start_time=toStartTime,
        id=id,
        name=name,
        dataset_id=datasetId,
        cursor=cursor,
        limit=limit,
    )
    found = await gw.call(Evaluation.list_experiments, query)
    scores = {}
    if "scores" in asked:
        ids = [e.run.id for e in found.data]
        scores = await _run_scores(gw, project.id, ids, scoreLimit)
    data = [
        LangfuseExperimentRun(
            id=e.run.id,
            name=e.run.name,
            description=e.run.description,
            start_time=max(e.start_time, fromStartTime),
            end_time=e.end_time,
            item_count=e.item_count,
            dataset_id=e.run.dataset_id,
            metadata=(_dict(e.run.metadata) or {}) if "metadata" in asked else None,
            scores=scores.get(e.run.id, []) if "scores" in asked else None,
        )
        for e in found.data
    ]
    return Experiments(data=data, meta=ExperimentsMeta(cursor=found.cursor))


async def _traces(gw: Gateway, project_id: str, trace_ids: list[str]) -> dict[str, TraceDetail]:
    limit = asyncio.Semaphore(_PARALLEL)

    async def one(trace_id: str) -> TraceDetail | None:
        async with limit:
            try:
                return await gw.call(
                    Tracking.get_trace, GetTrace(project_id=project_id, id=trace_id)
                )
            except RemoteError:  # a trace not stored (yet) reads as none
                return None

    found = await asyncio.gather(*(one(t) for t in dict.fromkeys(trace_ids)))
    return {d.trace.id: d for d in found if d is not None}


def _item(
    item: RunItem,
    run: DatasetRun | None,
    detail: TraceDetail | None,
    asked: set[str],
    score_limit: int,
) -> LangfuseExperimentItem:
    fields: dict[str, Any] = {}
    if "dataset" in asked:
        fields |= {"experiment_dataset_id": item.dataset_id,
                   "experiment_item_version": item.dataset_version}  # fmt: skip
    if "io" in asked:
        fields["expected_output"] = item.expected_output
        if detail is not None:
            fields |= {"input": detail.trace.input, "output": detail.trace.output}
    if "metadata" in asked:
        fields["metadata"] = detail.trace.metadata if detail else {}
    if "itemMetadata" in asked:
        fields["experiment_item_metadata"] = _dict(item.item_metadata) or {}
    if "experimentMetadata" in asked and run is not None:
        fields |= {"experiment_metadata": _dict(run.metadata) or {},
                   "experiment_description": run.description}  # fmt: skip
    if "scores" in asked:
        groups = score_groups(None)
        scores = detail.scores if detail else []
        fields["scores"] = [LangfuseScoreV3.of(s, groups) for s in scores[:score_limit]]
    return LangfuseExperimentItem(
        id=item.id,
        trace_id=item.trace_id,
        start_time=item.start_time,
        end_time=item.end_time,
        level=item.level,
        environment=item.environment,
        experiment_id=item.dataset_run_id,
        experiment_name=item.dataset_run_name,
        experiment_item_id=item.dataset_item_id,
        **fields,
    )


@router.get(
    "/experiment-items",
    summary="Experiment items started in the window, the newest first",
    response_model_exclude_none=True,
)
async def list_experiment_items(
    gw: GatewayDep,
    project: KeyProjectDep,
    fromStartTime: datetime,  # noqa: N803
    toStartTime: datetime | None = None,  # noqa: N803
    fields: Text = None,
    limit: Limit = 50,
    scoreLimit: Annotated[int, Query(ge=0, le=1000)] = 100,  # noqa: N803
    cursor: Text = None,
    experimentId: Text = None,  # noqa: N803
    experimentName: Text = None,  # noqa: N803
    experimentItemId: Text = None,  # noqa: N803
    datasetId: Text = None,  # noqa: N803
    filter: Text = None,  # noqa: A002
) -> ExperimentItems:
    refuse_filter(filter)
    asked = _fields(fields, _ITEM_FIELDS)
    query = ListExperimentItems(
        project_id=project.id,
        from_start_time=fromStartTime,
        to_start_time=toStartTime,
        experiment_id=experimentId,
        experiment_name=experimentName,
        experiment_item_id=experimentItemId,
        dataset_id=datasetId,
        cursor=cursor,
        limit=limit,
    )
    found = await gw.call(Evaluation.list_experiment_items, query)
    runs = {r.id: r for r in found.runs}
    details = {}
    if asked & {"io", "metadata", "scores"}:
        details = await _traces(gw, project.id, [i.trace_id for i in found.data])
    data = [
        _item(i, runs.get(i.dataset_run_id), details.get(i.trace_id), asked, scoreLimit)
        for i in found.data
    ]
    return ExperimentItems(data=data, meta=ExperimentsMeta(cursor=found.cursor))
