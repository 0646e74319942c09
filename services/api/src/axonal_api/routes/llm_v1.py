"""``/api/v1/{owner}/{project}/sessions``, ``users`` and ``scores``: LLM reads with the api token.

The same tracking RPCs as the Langfuse-compatible ``/api/public`` reads, for callers that hold
the api token rather than a project key (the web UI).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Annotated, TypedDict, TypeVar

from fastapi import APIRouter, Depends, Query
from pydantic import BaseModel

from axonal_api.deps import GatewayDep
from axonal_api.gateway import Gateway
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.traces_v1 import project_id_of
from axonal_events import Rpc
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import (
    GetSession,
    ListScores,
    ListSessions,
    ListUsers,
    ScorePage,
    SessionPage,
    SessionWithTraces,
    UserPage,
)
from axonal_events.traces import ScoreDataType, ScoreSource

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}", tags=["traces"], responses=ERRORS)

Page = Annotated[int, Query(ge=1)]
Limit = Annotated[int, Query(ge=1, le=100)]
Time = Annotated[datetime | None, Query()]
Many = Annotated[list[str] | None, Query(description="Any of them.")]


class Window(TypedDict):
    """The query parameters every list here ends with: a time window and a page of it."""

    from_timestamp: datetime | None
    to_timestamp: datetime | None
    page: int
    limit: int


def window(
    from_timestamp: Time = None, to_timestamp: Time = None, page: Page = 1, limit: Limit = 20
) -> Window:
    return Window(from_timestamp=from_timestamp, to_timestamp=to_timestamp, page=page, limit=limit)


WindowDep = Annotated[Window, Depends(window)]

Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)


async def list_in_window(
    gw: Gateway,
    owner: str,
    project: str,
    method: Rpc[Req, Res],
    request: Callable[..., Req],
    window: Window,
    environment: list[str] | None,
) -> Res:
    """Call ``method`` with the request of ``owner/project``'s environments and window."""
    project_id = await project_id_of(gw, owner, project)
    query = request(project_id=project_id, environment=environment or [], **window)
    return await gw.call(method, query)


@router.get("/sessions", summary="List LLM sessions, newest first, with their traces' totals")
async def list_sessions(
    gw: GatewayDep, owner: Owner, project: Project, window: WindowDep, environment: Many = None
) -> SessionPage:
    method = Tracking.list_sessions
    return await list_in_window(gw, owner, project, method, ListSessions, window, environment)


@router.get("/sessions/{session_id}", summary="An LLM session with its traces, in time order")
async def get_session(
    gw: GatewayDep, owner: Owner, project: Project, session_id: str
) -> SessionWithTraces:
    project_id = await project_id_of(gw, owner, project)
    return await gw.call(Tracking.get_session, GetSession(project_id=project_id, id=session_id))


@router.get("/users", summary="Users of LLM traces, the most recently seen first, with totals")
async def list_users(
    gw: GatewayDep, owner: Owner, project: Project, window: WindowDep, environment: Many = None
) -> UserPage:
    method = Tracking.list_users
    return await list_in_window(gw, owner, project, method, ListUsers, window, environment)


@router.get("/scores", summary="List scores, newest first")
async def list_scores(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    window: WindowDep,
    name: Many = None,
    source: Annotated[list[ScoreSource] | None, Query(description="Any of them.")] = None,
    data_type: Annotated[list[ScoreDataType] | None, Query(description="Any of them.")] = None,
    trace_id: Many = None,
    observation_id: Many = None,
    session_id: Many = None,
) -> ScorePage:
    project_id = await project_id_of(gw, owner, project)
    query = ListScores(
        project_id=project_id,
        name=name or [],
        source=source or [],
        data_type=data_type or [],
        trace_id=trace_id or [],
        observation_id=observation_id or [],
        session_id=session_id or [],
        **window,
    )
    return await gw.call(Tracking.list_scores, query)
