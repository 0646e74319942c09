"""Runs tracked from the SDK (non-managed): create, patch inputs/outputs/tags/progress, end.

The scheduler answers each call synchronously (one transaction), so the SDK can log metrics
to a run as soon as it is created. Any run of the project may be patched (a managed run's
process reports its tags and progress too); only a non-managed run may be ended here.
"""

from __future__ import annotations

from typing import Annotated, TypeVar

from fastapi import APIRouter, Header
from pydantic import BaseModel

from axonal_api.bodies import CreateTrackedRun, EndRunIn, RunPatch
from axonal_api.deps import GatewayDep
from axonal_api.idempotency import submit_ids
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid, get_run_checked
from axonal_events import Rpc
from axonal_events.rpcs import Scheduler
from axonal_events.runs import EndRun, RunInfo, TrackRun, UpdateRun

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["runs"], responses=ERRORS)


@router.post("/tracked", status_code=201, summary="Create a run tracked from the SDK")
async def create_tracked(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    body: CreateTrackedRun,
    idempotency_key: Annotated[str | None, Header(max_length=200)] = None,
) -> RunInfo:
    """The run starts ``running`` at once; creating an existing ``uuid`` returns that run."""
    run_uuid = body.uuid.lower() if body.uuid else submit_ids(owner, project, idempotency_key)[0]
    request = TrackRun(
        run_uuid=run_uuid,
        owner=owner,
        project=project,
        name=body.name,
        description=body.description,
        tags=body.tags,
        inputs=body.inputs,
    )
    return await gw.call(Scheduler.track_run, request)


Change = TypeVar("Change", UpdateRun, EndRun)


async def _change(
    gw: GatewayDep,
    path: tuple[str, str, str],
    method: Rpc[Change, RunInfo],
    body: BaseModel,
) -> RunInfo:
    """The scheduler's ``method`` on the run at ``path`` (owner, project, uuid), with ``body``."""
    run = await get_run_checked(gw, *path)
    payload = method.request(run_uuid=run.uuid, **body.model_dump())
    return await gw.call(method, payload)


@router.patch("/{run_uuid}", summary="Merge inputs, outputs, tags and progress into a run")
async def patch_run(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid, body: RunPatch
) -> RunInfo:
    return await _change(gw, (owner, project, run_uuid), Scheduler.update_run, body)


@router.post("/{run_uuid}/end", summary="End a run tracked from the SDK")
async def end_run(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid, body: EndRunIn
) -> RunInfo:
    """409 for a run an agent executes (stop it instead); a done run is returned as it is."""
    return await _change(gw, (owner, project, run_uuid), Scheduler.end_run, body)
