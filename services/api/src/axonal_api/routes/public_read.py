"""Langfuse-compatible reads (camelCase JSON): traces, observations, sessions and scores.

Answered by the tracking service's read RPCs for the project of the request's API key.
"""

from __future__ import annotations

import re
from datetime import datetime
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Query
from pydantic import BaseModel

from axonal_api import VERSION
from axonal_api.deps import GatewayDep
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep
from axonal_events.api_keys import KeyProject
from axonal_events.rpcs import Tracking
from axonal_events.traces import (
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    ObservationLevel,
    ObservationType,
    ObservationView,
    ScoreDataType,
    ScoreSource,
    ScoreView,
    SessionView,
    TraceView,
)

__all__ = ["router"]

router = APIRouter(
    prefix="/api/public", tags=["langfuse-compatible reads"], responses=READ_RESPONSES
)

Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=1000)]
Text = Annotated[str | None, Query(max_length=1000)]
Time = Annotated[datetime | None, Query()]
Many = Annotated[list[str] | None, Query()]


Q = TypeVar("Q", bound=BaseModel)
_SNAKE = re.compile(r"(?<!^)(?=[A-Z])")


def _query(model: type[Q], project: KeyProject, params: dict[str, Any], **renames: str) -> Q:
    """``model`` from a route's query parameters (Langfuse's camelCase names), unset ones left out.

    Routes pass ``locals()``: their parameters are exactly the query, plus ``gw`` and ``project``.
    """
    fields = {
        renames.get(name, _SNAKE.sub("_", name).lower()): value
        for name, value in params.items()
        if value is not None and name not in ("gw", "project")
    }
    return model(project_id=project.id, **fields)


def _ids(comma_separated: str | None) -> list[str] | None:
    if not comma_separated:
        return None
    return [part.strip() for part in comma_separated.split(",") if part.strip()]


def _camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part.title() for part in rest)


def _camel_keys(data: dict[str, Any]) -> dict[str, Any]:
    """Top-level keys only: user data (metadata, input, output) is returned as stored."""
    return {_camel(key): value for key, value in data.items()}


def _meta(meta: Any) -> dict[str, Any]:
    return _camel_keys(meta.model_dump())


def _observation(view: ObservationView) -> dict[str, Any]:
    data = _camel_keys(view.model_dump(mode="json", exclude={"experiment", "cost_source"}))
    usage = view.usage_details
    cost = view.cost_details
    latency = (view.end_time - view.start_time).total_seconds() if view.end_time else None
    first_token = view.completion_start_time
    return data | {
        "experiment": _camel_keys(view.experiment.model_dump()) if view.experiment else None,
        "usage": {
            "input": usage.get("input", 0),
            "output": usage.get("output", 0),
            "total": usage.get("total", 0),
            "unit": "TOKENS",
        },
        "calculatedInputCost": cost.get("input"),
        "calculatedOutputCost": cost.get("output"),
        "calculatedTotalCost": cost.get("total", sum(cost.values()) if cost else None),
        "latency": latency,
        "timeToFirstToken": (first_token - view.start_time).total_seconds()
        if first_token
        else None,
        "promptId": None,
    }


def _score(view: ScoreView, *, polymorphic: bool = False) -> dict[str, Any]:
    data = _camel_keys(view.model_dump(mode="json"))
    if polymorphic and view.value is None:
        data["value"] = view.string_value
    return data | {"authorUserId": None}


def _trace(view: TraceView, project: Any) -> dict[str, Any]:
    data = _camel_keys(
        view.model_dump(mode="json", exclude={"observation_ids", "score_ids", "run_uuid"})
    )
    return data | {
        "observations": view.observation_ids,
        "scores": view.score_ids,
        "htmlPath": f"/project/{project.id}/traces/{view.id}",
        "bookmarked": False,
        "externalId": None,
        "runUuid": view.run_uuid,
    }


def _session(view: SessionView) -> dict[str, Any]:
    return _camel_keys(view.model_dump(mode="json", exclude={"trace_ids"}))


@router.get("/health", summary="Liveness, as Langfuse answers it (no key needed)")
async def health() -> dict[str, str]:
    return {"status": "OK", "version": VERSION}


@router.get("/traces", summary="List traces")
async def list_traces(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Page = 1,
    limit: Limit = 50,
    userId: Text = None,  # noqa: N803 - Langfuse's query names
    name: Text = None,
    sessionId: Text = None,  # noqa: N803
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
    tags: Many = None,
    version: Text = None,
    release: Text = None,
    environment: Many = None,
) -> dict[str, Any]:
    query = _query(ListTraces, project, locals())
    found = await gw.call(Tracking.list_traces, query)
    return {"data": [_trace(t, project) for t in found.data], "meta": _meta(found.meta)}


@router.get("/traces/{trace_id}", summary="A trace with its observations and scores")
async def get_trace(gw: GatewayDep, project: KeyProjectDep, trace_id: str) -> dict[str, Any]:
    found = await gw.call(Tracking.get_trace, GetTrace(project_id=project.id, id=trace_id))
    return _trace(found.trace, project) | {
        "observations": [_observation(o) for o in found.observations],
        "scores": [_score(s) for s in found.scores],
    }


@router.get("/v2/observations", summary="List observations (cursor pages)")
async def list_observations(
    gw: GatewayDep,
    project: KeyProjectDep,
    limit: Limit = 50,
    cursor: Text = None,
    name: Text = None,
    userId: Text = None,  # noqa: N803
    sessionId: Text = None,  # noqa: N803
    type: ObservationType | None = None,  # noqa: A002
    traceId: Text = None,  # noqa: N803
    level: ObservationLevel | None = None,
    parentObservationId: Text = None,  # noqa: N803
    environment: Many = None,
    fromStartTime: Time = None,  # noqa: N803
    toStartTime: Time = None,  # noqa: N803
    version: Text = None,
) -> dict[str, Any]:
    query = _query(
        ListObservations,
        project,
        locals(),
        fromStartTime="from_timestamp",
        toStartTime="to_timestamp",
    )
    found = await gw.call(Tracking.list_observations, query)
    return {"data": [_observation(o) for o in found.data], "meta": {"cursor": found.cursor}}


@router.get("/sessions", summary="List sessions")
async def list_sessions(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Page = 1,
    limit: Limit = 50,
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
    environment: Many = None,
) -> dict[str, Any]:
    query = _query(ListSessions, project, locals())
    found = await gw.call(Tracking.list_sessions, query)
    return {"data": [_session(s) for s in found.data], "meta": _meta(found.meta)}


@router.get("/sessions/{session_id}", summary="A session with its traces")
async def get_session(gw: GatewayDep, project: KeyProjectDep, session_id: str) -> dict[str, Any]:
    query = GetSession(project_id=project.id, id=session_id)
    found = await gw.call(Tracking.get_session, query)
    return _session(found.session) | {"traces": [_trace(t, project) for t in found.traces]}


@router.get("/v3/scores", summary="List scores (cursor pages, polymorphic value)")
async def list_scores_v3(
    gw: GatewayDep,
    project: KeyProjectDep,
    limit: Limit = 50,
    cursor: Text = None,
    id: Many = None,  # noqa: A002
    name: Text = None,
    source: ScoreSource | None = None,
    dataType: ScoreDataType | None = None,  # noqa: N803
    environment: Many = None,
    configId: Text = None,  # noqa: N803
    queueId: Text = None,  # noqa: N803
    traceId: Text = None,  # noqa: N803
    sessionId: Text = None,  # noqa: N803
    observationId: Text = None,  # noqa: N803
    experimentId: Text = None,  # noqa: N803
    valueMin: float | None = None,  # noqa: N803
    valueMax: float | None = None,  # noqa: N803
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
) -> dict[str, Any]:
    query = _query(ListScores, project, locals(), experimentId="dataset_run_id")
    found = await gw.call(Tracking.list_scores, query)
    data = [_score(s, polymorphic=True) for s in found.data]
    return {"data": data, "meta": {"cursor": found.cursor}}


@router.get("/v2/scores", summary="List scores (pages)")
async def list_scores_v2(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Page = 1,
    limit: Limit = 50,
    userId: Text = None,  # noqa: N803
    name: Text = None,
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
    environment: Many = None,
    source: ScoreSource | None = None,
    scoreIds: Text = None,  # noqa: N803
    configId: Text = None,  # noqa: N803
    sessionId: Text = None,  # noqa: N803
    datasetRunId: Text = None,  # noqa: N803
    traceId: Text = None,  # noqa: N803
    observationId: Text = None,  # noqa: N803
    queueId: Text = None,  # noqa: N803
    dataType: ScoreDataType | None = None,  # noqa: N803
) -> dict[str, Any]:
    query = _query(ListScores, project, {**locals(), "scoreIds": _ids(scoreIds)}, scoreIds="id")
    found = await gw.call(Tracking.list_scores, query)
    return {"data": [_score(s) for s in found.data], "meta": _meta(found.meta)}
