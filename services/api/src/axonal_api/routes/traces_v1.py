"""``/api/v1/{owner}/{project}/traces``: LLM traces with the platform's auth (the CLI's reads).

The same tracking RPCs as the Langfuse-compatible ``/api/public`` reads, for callers that hold
the api token rather than a project key (the CLI and the web UI).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.gateway import Gateway
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.identity import ListProjectsRequest
from axonal_events.retention import DeleteTraceRequest, DeletionAccepted
from axonal_events.rpcs import Identity, Tracking
from axonal_events.trace_reads import GetTrace, ListTraces, TraceDetail, TracePage

__all__ = ["project_id_of", "router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/traces", tags=["traces"], responses=ERRORS)

Text = Annotated[str | None, Query(max_length=1000)]


async def project_id_of(gw: Gateway, owner: str, project: str) -> str:
    """The id of the project ``owner/project`` (404 when there is none)."""
    query = ListProjectsRequest(owner=owner)
    found = await gw.call(Identity.list_projects, query)
    for candidate in found.projects:
        if candidate.name == project:
            return candidate.id
    raise ApiError(404, "not_found", f"project {owner}/{project} not found")


@router.get("", summary="List LLM traces, newest first")
async def list_traces(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    user: Text = None,
    session: Text = None,
    name: Text = None,
    tag: Annotated[list[str] | None, Query(description="Traces having all of them.")] = None,
    environment: Annotated[list[str] | None, Query(description="Any of them.")] = None,
    from_timestamp: Annotated[datetime | None, Query(description="At or after.")] = None,
    to_timestamp: Annotated[datetime | None, Query(description="Before.")] = None,
    score_name: Annotated[str | None, Query(max_length=1000, description="Scored so.")] = None,
    score_min: Annotated[float | None, Query(description="That score at least.")] = None,
    score_max: Annotated[float | None, Query(description="That score at most.")] = None,
    page: Annotated[int, Query(ge=1)] = 1,
    limit: Annotated[int, Query(ge=1, le=100)] = 20,
) -> TracePage:
    project_id = await project_id_of(gw, owner, project)
    query = ListTraces(
        project_id=project_id,
        user_id=user,
        session_id=session,
        name=name,
        tags=tag or [],
        environment=environment or [],
        from_timestamp=from_timestamp,
        to_timestamp=to_timestamp,
        score_name=score_name,
        score_min=score_min,
        score_max=score_max,
        page=page,
        limit=limit,
    )
    return await gw.call(Tracking.list_traces, query)


@router.get("/{trace_id}", summary="A trace with its observations and scores")
async def get_trace(gw: GatewayDep, owner: Owner, project: Project, trace_id: str) -> TraceDetail:
    project_id = await project_id_of(gw, owner, project)
    query = GetTrace(project_id=project_id, id=trace_id)
    return await gw.call(Tracking.get_trace, query)


@router.delete("/{trace_id}", status_code=202, summary="Delete a trace")
async def delete_trace(
    gw: GatewayDep, owner: Owner, project: Project, trace_id: str
) -> DeletionAccepted:
    """The trace goes with its observations and scores, and what other services hold of it;
    each confirms with ``deletion.completed``."""
    project_id = await project_id_of(gw, owner, project)
    request = DeleteTraceRequest(
        project_id=project_id, project=f"{owner}/{project}", trace_id=trace_id
    )
    return await gw.call(Tracking.delete_trace, request)
