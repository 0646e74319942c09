"""Langfuse-compatible reads (camelCase JSON): traces, observations, sessions and scores.

Answered by the tracking service's read RPCs for the project of the request's API key.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from axonal_api import VERSION
from axonal_api.deps import GatewayDep
from axonal_api.observations_v2 import (
    DEFAULT_GROUPS,
    FIELD_GROUPS,
    LangfuseObservationV2,
    field_groups,
)
from axonal_api.public_auth import READ_RESPONSES, KeyProjectDep, PublicError
from axonal_api.public_bodies import (
    Cursored,
    CursorMeta,
    LangfuseListedScore,
    LangfuseObservation,
    LangfuseSession,
    LangfuseSessionDetail,
    LangfuseTrace,
    LangfuseTraceDetail,
    Paged,
    PageInfo,
)
from axonal_api.public_query import ids, query_of, refuse_filter, trace_order, value_condition
from axonal_api.scores_v3 import (
    SCORE_GROUPS,
    InvalidScoreQuery,
    LangfuseScoreV3,
    ScoresV3,
    ScoresV3Meta,
    score_filters,
    score_groups,
)
from axonal_api.trace_fields import TRACE_GROUPS, shaped, trace_groups
from axonal_events.retention import DeleteTraceRequest
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import (
    GetObservation,
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
)
from axonal_events.traces import ObservationLevel, ObservationType, ScoreDataType, ScoreSource

__all__ = ["router"]

router = APIRouter(
    prefix="/api/public", tags=["langfuse-compatible reads"], responses=READ_RESPONSES
)

Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=1000)]
Text = Annotated[str | None, Query(max_length=1000)]
Time = Annotated[datetime | None, Query()]
Many = Annotated[list[str] | None, Query()]


_V3_LIMIT = 100  # Langfuse refuses larger /v3/scores pages
_NO_PARSE_IO = (
    "parseIoAsJson=true is no longer supported on the v2 observations endpoint. Input/output "
    "fields are always returned as raw strings. Remove the parseIoAsJson parameter or set it "
    "to false."
)


@router.get("/health", summary="Liveness, as Langfuse answers it (no key needed)")
async def health() -> dict[str, str]:
    return {"status": "OK", "version": VERSION}


_TRACE_FIELDS = (
    f"``fields``: comma-separated groups of {', '.join(TRACE_GROUPS)} (default all; core always)."
)


@router.get(
    "/traces",
    summary="List traces",
    response_model_exclude_unset=True,
    description=_TRACE_FIELDS,
)
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
    orderBy: Text = None,  # noqa: N803
    fields: Text = None,
    filter: Text = None,  # noqa: A002
) -> Paged[LangfuseTrace]:
    refuse_filter(filter)
    params = {**locals(), "orderBy": trace_order(orderBy)}
    query = query_of(ListTraces, project, params, orderBy="order")
    found = await gw.call(Tracking.list_traces, query)
    groups = trace_groups(fields)
    data = [shaped(LangfuseTrace.of(t, project), groups) for t in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.get(
    "/traces/{trace_id}",
    summary="A trace with its observations and scores",
    response_model_exclude_unset=True,
    description=_TRACE_FIELDS,
)
async def get_trace(
    gw: GatewayDep, project: KeyProjectDep, trace_id: str, fields: Text = None
) -> LangfuseTraceDetail:
    found = await gw.call(Tracking.get_trace, GetTrace(project_id=project.id, id=trace_id))
    trace = LangfuseTraceDetail.of(found.trace, project, found.observations, found.scores)
    return shaped(trace, trace_groups(fields))


class TraceDeletion(BaseModel):
    """Langfuse's answer to a trace deletion (the data goes soon after, as there)."""

    message: str


@router.delete("/traces/{trace_id}", summary="Delete a trace (its observations and scores)")
async def delete_trace(gw: GatewayDep, project: KeyProjectDep, trace_id: str) -> TraceDeletion:
    slug = f"{project.owner}/{project.name}"
    request = DeleteTraceRequest(project_id=project.id, project=slug, trace_id=trace_id)
    await gw.call(Tracking.delete_trace, request)
    return TraceDeletion(message="Trace deleted successfully")


@router.get("/observations", summary="List observations (numbered pages, Langfuse v1)")
async def list_observations_v1(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Page = 1,
    limit: Limit = 50,
    name: Text = None,
    userId: Text = None,  # noqa: N803
    type: ObservationType | None = None,  # noqa: A002
    traceId: Text = None,  # noqa: N803
    level: ObservationLevel | None = None,
    parentObservationId: Text = None,  # noqa: N803
    environment: Many = None,
    fromStartTime: Time = None,  # noqa: N803
    toStartTime: Time = None,  # noqa: N803
    version: Text = None,
    filter: Text = None,  # noqa: A002
) -> Paged[LangfuseObservation]:
    refuse_filter(filter)
    query = query_of(
        ListObservations,
        project,
        locals(),
        fromStartTime="from_timestamp",
        toStartTime="to_timestamp",
    )
    found = await gw.call(Tracking.list_observations, query)
    assert found.meta is not None  # a numbered page carries its meta
    data = [LangfuseObservation.of(o) for o in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.get("/observations/{observation_id}", summary="One observation (Langfuse v1)")
async def get_observation(
    gw: GatewayDep, project: KeyProjectDep, observation_id: str
) -> LangfuseObservation:
    query = GetObservation(project_id=project.id, id=observation_id)
    return LangfuseObservation.of(await gw.call(Tracking.get_observation, query))


@router.get(
    "/v2/observations",
    summary="List observations (cursor pages, field groups)",
    response_model_exclude_unset=True,
    description="``fields``: comma-separated groups of "
    f"{', '.join(FIELD_GROUPS)} (default {','.join(DEFAULT_GROUPS)}); "
    "``expandMetadata``: metadata keys whose values are not cut to 200 characters.",
)
async def list_observations(
    gw: GatewayDep,
    project: KeyProjectDep,
    fields: Text = None,
    expandMetadata: Text = None,  # noqa: N803
    parseIoAsJson: bool | None = None,  # noqa: N803
    limit: Limit = 50,
    cursor: Text = None,
    name: Text = None,
    userId: Text = None,  # noqa: N803
    sessionId: Text = None,  # noqa: N803
    type: ObservationType | None = None,  # noqa: A002
    traceId: Text = None,  # noqa: N803
    level: ObservationLevel | None = None,
    parentObservationId: Text = None,  # noqa: N803
    isRootObservation: bool | None = None,  # noqa: N803
    environment: Many = None,
    fromStartTime: Time = None,  # noqa: N803
    toStartTime: Time = None,  # noqa: N803
    version: Text = None,
    filter: Text = None,  # noqa: A002
) -> Cursored[LangfuseObservationV2]:
    if parseIoAsJson:
        raise PublicError(400, _NO_PARSE_IO, "InvalidRequestError")
    refuse_filter(filter)
    query = query_of(
        ListObservations,
        project,
        locals(),
        fromStartTime="from_timestamp",
        toStartTime="to_timestamp",
    )
    found = await gw.call(Tracking.list_observations, query)
    groups, expand = field_groups(fields), ids(expandMetadata) or ()
    data = [LangfuseObservationV2.of(o, groups, expand) for o in found.data]
    meta = CursorMeta(cursor=found.cursor) if found.cursor else CursorMeta()
    return Cursored(data=data, meta=meta)


@router.get("/sessions", summary="List sessions")
async def list_sessions(
    gw: GatewayDep,
    project: KeyProjectDep,
    page: Page = 1,
    limit: Limit = 50,
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
    environment: Many = None,
) -> Paged[LangfuseSession]:
    query = query_of(ListSessions, project, locals())
    found = await gw.call(Tracking.list_sessions, query)
    data = [LangfuseSession.of(s) for s in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))


@router.get("/sessions/{session_id}", summary="A session with its traces")
async def get_session(
    gw: GatewayDep, project: KeyProjectDep, session_id: str
) -> LangfuseSessionDetail:
    query = GetSession(project_id=project.id, id=session_id)
    found = await gw.call(Tracking.get_session, query)
    traces = [LangfuseTrace.of(t, project) for t in found.traces]
    return LangfuseSessionDetail(**LangfuseSession.of(found.session).model_dump(), traces=traces)


@router.get(
    "/v3/scores",
    summary="List scores (cursor pages, typed value, field groups)",
    response_model_exclude_unset=True,
    description=f"``fields``: comma-separated groups of {', '.join(SCORE_GROUPS)} (core always). "
    "List filters are comma-separated; a value matches any of them.",
)
async def list_scores_v3(
    gw: GatewayDep,
    project: KeyProjectDep,
    limit: Annotated[int, Query(ge=1)] = 50,
    cursor: Text = None,
    fields: Text = None,
    id: Text = None,  # noqa: A002
    name: Text = None,
    source: Text = None,
    dataType: Text = None,  # noqa: N803
    environment: Text = None,
    configId: Text = None,  # noqa: N803
    queueId: Text = None,  # noqa: N803
    authorUserId: Text = None,  # noqa: N803
    value: Text = None,
    valueMin: float | None = None,  # noqa: N803
    valueMax: float | None = None,  # noqa: N803
    traceId: Text = None,  # noqa: N803
    sessionId: Text = None,  # noqa: N803
    observationId: Text = None,  # noqa: N803
    experimentId: Text = None,  # noqa: N803
    fromTimestamp: Time = None,  # noqa: N803
    toTimestamp: Time = None,  # noqa: N803
) -> ScoresV3:
    texts = {
        "id": id, "name": name, "source": source, "dataType": dataType,
        "environment": environment, "configId": configId, "queueId": queueId,
        "authorUserId": authorUserId, "value": value, "traceId": traceId,
        "sessionId": sessionId, "observationId": observationId, "experimentId": experimentId,
    }  # fmt: skip
    try:
        if limit > _V3_LIMIT:
            raise InvalidScoreQuery(f"limit: at most {_V3_LIMIT}")
        groups, filters = score_groups(fields), score_filters(texts, valueMin, valueMax)
    except InvalidScoreQuery as exc:
        raise PublicError(400, str(exc), "InvalidRequestError") from None
    query = ListScores(
        project_id=project.id,
        limit=limit,
        cursor=cursor,
        from_timestamp=fromTimestamp,
        to_timestamp=toTimestamp,
        **filters,
    )
    found = await gw.call(Tracking.list_scores, query)
    meta = ScoresV3Meta(limit=limit, **({"cursor": found.cursor} if found.cursor else {}))
    return ScoresV3(data=[LangfuseScoreV3.of(s, groups) for s in found.data], meta=meta)


@router.get(
    "/v2/scores",
    summary="List scores (pages)",
    description="``fields``: comma-separated groups of score, trace (default both).",
)
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
    operator: Text = None,
    value: float | None = None,
    traceTags: Many = None,  # noqa: N803
    fields: Text = None,
    filter: Text = None,  # noqa: A002
) -> Paged[LangfuseListedScore]:
    refuse_filter(filter)
    params = {
        **locals(),
        "scoreIds": ids(scoreIds),
        "operator": None,
        "value": value_condition(operator, value),
    }
    query = query_of(ListScores, project, params, scoreIds="id", value="value_is")
    found = await gw.call(Tracking.list_scores, query)
    named = ids(fields)
    with_trace = not named or "trace" in named  # as Langfuse: absent fields means both groups
    data = [LangfuseListedScore.listed(s, with_trace=with_trace) for s in found.data]
    return Paged(data=data, meta=PageInfo.of(found.meta))
