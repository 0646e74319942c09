"""``/api/v1/{owner}/{project}/models/{model}/versions/{version}/lineage``: the graph from
the dataset versions runs read, through the runs, to the model version.

The registry answers the graph (nodes and edges); each run node gets the run's name,
status, params (its inputs) and latest metrics from the scheduler and the tracking service.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.models import ModelName
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode
from axonal_events.metrics import ReadLatest
from axonal_events.model_registry import LineageGraph, LineageNode, ReadModelLineage
from axonal_events.rpcs import Registry, Scheduler, Tracking
from axonal_events.runs import GetRun

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/models", tags=["models"], responses=ERRORS)


@router.get(
    "/{model}/versions/{version}/lineage",
    summary="Datasets and runs upstream of a model version, as nodes and edges",
)
async def lineage(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    model: ModelName,
    version: Annotated[int, Path(ge=1)],
    depth: Annotated[int, Query(ge=1, le=10, description="Runs upstream to follow.")] = 3,
) -> LineageGraph:
    request = ReadModelLineage(
        project=f"{owner}/{project}", model=model, version=version, depth=depth
    )
    graph = await gw.call(Registry.lineage, request)
    runs = [node.label for node in graph.nodes if node.kind == "run"]
    if not runs:
        return graph
    latest = await gw.call(Tracking.latest, ReadLatest(run_uuids=runs))
    details = {run: await _run_details(gw, run) for run in runs}
    nodes = [
        _with(node, details[node.label], latest.values.get(node.label, {}))
        if node.kind == "run"
        else node
        for node in graph.nodes
    ]
    return LineageGraph(nodes=nodes, edges=graph.edges)


def _with(node: LineageNode, details: dict[str, Any], metrics: dict[str, Any]) -> LineageNode:
    attributes = {**node.attributes, **details, "metrics": metrics}
    return node.model_copy(update={"attributes": attributes})


async def _run_details(gw: GatewayDep, run_uuid: str) -> dict[str, Any]:
    try:
        run = await gw.call(Scheduler.get_run, GetRun(run_uuid=run_uuid))
    except RemoteError as exc:  # a run gone from the scheduler keeps its place in the graph
        if exc.code is not ErrorCode.NOT_FOUND:
            raise
        return {}
    return {"name": run.name, "status": run.status.value, "params": run.inputs}
