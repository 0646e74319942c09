"""Request/reply reads of LLM traces: what the Langfuse-compatible read API and tools call."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events.traces import (
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    ObservationPage,
    ScorePage,
    SessionPage,
    SessionWithTraces,
    TraceDetail,
    TracePage,
)
from axonal_tracking import traces_query
from axonal_tracking.traces_query import InvalidCursor

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    def snapshot() -> AbstractAsyncContextManager[Connection]:
        """One read-only snapshot: a trace and its observations as one commit left them."""
        return transaction(ctx.pool, isolation="repeatable_read", readonly=True)

    async def list_traces(request: ListTraces) -> TracePage:
        async with ctx.pool.acquire() as conn:
            data, meta = await traces_query.list_traces(conn, request)
        return TracePage(data=data, meta=meta)

    async def get_trace(request: GetTrace) -> TraceDetail:
        async with snapshot() as conn:
            trace = await traces_query.get_trace(conn, request.project_id, request.id)
            if trace is None:
                raise Permanent(f"not found: trace {request.id}")
            observations = await traces_query.observations_of(conn, request.project_id, trace.id)
            scores = await traces_query.scores_of(conn, request.project_id, trace.id)
        return TraceDetail(trace=trace, observations=observations, scores=scores)

    async def list_observations(request: ListObservations) -> ObservationPage:
        async with ctx.pool.acquire() as conn:
            try:
                data, cursor = await traces_query.list_observations(conn, request)
            except InvalidCursor as exc:
                raise Permanent(str(exc)) from None
        return ObservationPage(data=data, cursor=cursor)

    async def list_scores(request: ListScores) -> ScorePage:
        async with ctx.pool.acquire() as conn:
            try:
                data, meta, cursor = await traces_query.list_scores(conn, request)
            except InvalidCursor as exc:
                raise Permanent(str(exc)) from None
        return ScorePage(data=data, meta=meta, cursor=cursor)

    async def list_sessions(request: ListSessions) -> SessionPage:
        async with ctx.pool.acquire() as conn:
            data, meta = await traces_query.list_sessions(conn, request)
        return SessionPage(data=data, meta=meta)

    async def get_session(request: GetSession) -> SessionWithTraces:
        async with snapshot() as conn:
            found = await traces_query.get_session(conn, request.project_id, request.id)
        if found is None:
            raise Permanent(f"not found: session {request.id}")
        return SessionWithTraces(session=found[0], traces=found[1])

    ctx.serve_rpc("list_traces", ListTraces, list_traces)
    ctx.serve_rpc("get_trace", GetTrace, get_trace)
    ctx.serve_rpc("list_observations", ListObservations, list_observations)
    ctx.serve_rpc("list_scores", ListScores, list_scores)
    ctx.serve_rpc("list_sessions", ListSessions, list_sessions)
    ctx.serve_rpc("get_session", GetSession, get_session)
