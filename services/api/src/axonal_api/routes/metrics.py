"""``/api/v1/{owner}/{project}/runs/{uuid}/metrics``: log points (the SDK's HTTP path), read series.

A logged batch is answered 202 once JetStream stored it; the tracking service writes it soon
after. ``Idempotency-Key`` becomes the batch's ``Nats-Msg-Id``, so a retried POST is stored
once (and points are keyed by run, name and step in any case).

Logged points count against the project's ``points_per_second`` (:mod:`axonal_api.quotas`):
over it, a 429 with ``Retry-After``; the SDK waits that long and sends the batch again.

Values may be NaN or infinite: JSON has no literal for them, so both ways they are the strings
``"NaN"``, ``"Infinity"`` and ``"-Infinity"`` in a value's place (the bare tokens ``NaN`` and
``Infinity`` some encoders write are read too).
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Annotated

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse, Response

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.quotas import QuotasDep, RateLimited
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid, get_run_checked
from axonal_events.answers import MetricsAccepted
from axonal_events.metrics import MetricBatch, ReadSeries, SeriesList
from axonal_events.rpcs import Tracking

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/runs", tags=["metrics"], responses=ERRORS)


@router.post(
    "/{run_uuid}/metrics",
    status_code=202,
    summary="Log metric points of a run",
    responses={429: {**ERRORS[400], "description": "Over the project's points per second"}},
)
async def log_metrics(
    gw: GatewayDep,
    quotas: QuotasDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    batch: MetricBatch,
    idempotency_key: Annotated[str | None, Header(max_length=200)] = None,
) -> MetricsAccepted:
    """Up to 10,000 points; NaN and infinities as the strings "NaN", "Infinity", "-Infinity".
    Over the project's points per second: 429 with ``Retry-After`` (seconds)."""
    try:
        bucket = await quotas.admit(gw, f"{owner}/{project}", "points")
    except RateLimited as exc:
        headers = {"Retry-After": str(exc.retry_after)}
        raise ApiError(429, "rate_limited", str(exc), headers=headers) from None
    run = await get_run_checked(gw, owner, project, run_uuid)
    if batch.run_uuid != run.uuid:
        raise ApiError(400, "invalid", "the batch's run_uuid is not the run in the path")
    msg_id = idempotency_key or uuid.uuid4().hex
    if bucket is not None:
        bucket.take(len(batch.points))
    await gw.ingest(f"metrics.{run.uuid}", batch.model_dump_json().encode(), msg_id)
    return MetricsAccepted(run_uuid=run.uuid, points=len(batch.points))


@router.get(
    "/{run_uuid}/metrics",
    summary="Metric series of a run, downsampled",
    response_model=SeriesList,
    response_class=JSONResponse,
)
async def read_metrics(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    name: Annotated[list[str] | None, Query(description="Metric names (all when absent).")] = None,
    points: Annotated[
        int, Query(ge=2, le=100_000, description="Points per series, at most.")
    ] = 1000,
    first_step: Annotated[
        int | None, Query(ge=0, description="Only the steps from this one (included).")
    ] = None,
    last_step: Annotated[
        int | None, Query(ge=0, description="Only the steps up to this one (included).")
    ] = None,
) -> Response:
    """Each series (its steps from ``first_step`` to ``last_step`` when set: a chart's zoom)
    cut into equal step buckets: last step, its value and time, min and max per bucket (NaN
    points left out of them, and counted in ``nans``); non-finite values as strings."""
    # The run is checked while its series are read, and the tracking service's JSON is
    # answered as it is: a page of charts is a few hundred KB, read and written once.
    if first_step is not None and last_step is not None and first_step > last_step:
        raise ApiError(400, "invalid", "first_step is after last_step")
    query = ReadSeries(
        run_uuids=[run_uuid.replace("-", "").lower()],  # as the scheduler keeps it
        names=name or [],
        points=points,
        first_step=first_step,
        last_step=last_step,
    )
    _, series = await asyncio.gather(
        get_run_checked(gw, owner, project, run_uuid), gw.call_json(Tracking.series, query)
    )
    return Response(series, media_type="application/json")
