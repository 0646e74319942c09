"""``/api/v1/{owner}/{project}/runs/{uuid}/study``: an adaptive sweep's optimisation history,
its best trial and its params' importances (from the optimization service)."""

from __future__ import annotations

from fastapi import APIRouter

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project, get_run_checked
from axonal_events.rpcs import Optimization
from axonal_events.studies import GetStudy, StudyView

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["runs"], responses=ERRORS)


@router.get("/{run_uuid}/study", summary="An adaptive sweep's trials, best and importances")
async def get_study(gw: GatewayDep, owner: Owner, project: Project, run_uuid: str) -> StudyView:
    run = await get_run_checked(gw, owner, project, run_uuid)
    return await gw.call(Optimization.study, GetStudy(sweep_uuid=run.uuid))
