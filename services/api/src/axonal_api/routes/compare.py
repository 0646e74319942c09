"""``/api/v1/{owner}/{project}/compare``: runs side by side, their params, results and metrics.

Runs come from the scheduler (inputs, outputs, status) and their latest metric values from
the tracking service; the union of names of each kind gives the table's rows, and
``differing`` names the rows whose values are not the same in every run.
"""

from __future__ import annotations

import asyncio
import math
from typing import Annotated

from fastapi import APIRouter, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project, get_run_checked
from axonal_events.answers import ComparedRun, RunComparison
from axonal_events.metrics import ReadLatest
from axonal_events.rpcs import Tracking

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}", tags=["runs"], responses=ERRORS)

RunList = Annotated[
    list[Annotated[str, Query(pattern=r"^[0-9a-fA-F-]{32,36}$")]],
    Query(min_length=1, max_length=50, description="The runs, in the order to show them."),
]


@router.get("/compare", summary="Compare runs: params, results and last metrics")
async def compare(gw: GatewayDep, owner: Owner, project: Project, run: RunList) -> RunComparison:
    """404 when a run is not in this project."""
    uuids = list(dict.fromkeys(run))  # each run once, in the order given
    infos = await asyncio.gather(*(get_run_checked(gw, owner, project, u) for u in uuids))
    latest = await gw.call(Tracking.latest, ReadLatest(run_uuids=[i.uuid for i in infos]))
    runs = [
        ComparedRun(
            uuid=i.uuid,
            name=i.name,
            status=i.status,
            created_at=i.created_at,
            finished_at=i.finished_at,
            inputs=i.inputs,
            outputs=i.outputs,
            metrics=latest.values.get(i.uuid, {}),
        )
        for i in infos
    ]
    kinds = {
        "inputs": [r.inputs for r in runs],
        "outputs": [r.outputs for r in runs],
        "metrics": [r.metrics for r in runs],
    }
    names = {kind: sorted({n for values in rows for n in values}) for kind, rows in kinds.items()}
    differing = [
        f"{kind}.{name}"
        for kind, rows in kinds.items()
        for name in names[kind]
        if any(not _same(values.get(name), rows[0].get(name)) for values in rows)
    ]
    return RunComparison(runs=runs, differing=differing, **names)


def _same(a: object, b: object) -> bool:
    """Equal values; NaN is the same as NaN here (a metric NaN in both runs does not differ)."""
    both_nan = isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)
    return both_nan or a == b
