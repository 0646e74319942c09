"""Request/reply reads of LLM traces: what the Langfuse-compatible read API and tools call."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager

from axonal_bus.errors import Invalid, NotFound
from axonal_bus.outbox import enqueue
from axonal_db import Connection, transaction
from axonal_events import new_event
from axonal_events.catalog import TraceDeleted
from axonal_events.prompts import PromptGenerationPage, PromptGenerations
from axonal_events.retention import DeleteTraceRequest, DeletionAccepted
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import (
    GetObservation,
    GetSession,
    GetTrace,
    ListObservations,
    ListScores,
    ListSessions,
    ListTraces,
    ListUsers,
    ObservationPage,
    ObservationView,
    ScorePage,
    SessionPage,
    SessionWithTraces,
    TraceDetail,
    TracePage,
    UserPage,
)
from axonal_tracking.context import Context
from axonal_tracking.domain.cursors import InvalidCursor
from axonal_tracking.traces import prompt_usage, queries, score_queries, store

__all__ = [
    "delete_trace",
    "get_observation",
    "get_session",
    "get_trace",
    "list_observations",
    "list_scores",
    "list_sessions",
    "list_traces",
    "list_users",
    "prompt_generations",
    "register",
]


def _snapshot(ctx: Context) -> AbstractAsyncContextManager[Connection]:
    """One read-only snapshot: a page and its count, or a trace and its observations, as one
    commit left them."""
    return transaction(ctx.pool, isolation="repeatable_read", readonly=True)


async def list_traces(ctx: Context, request: ListTraces) -> TracePage:
    async with _snapshot(ctx) as conn:
        data, meta = await queries.list_traces(conn, request)
    return TracePage(data=data, meta=meta)


async def get_trace(ctx: Context, request: GetTrace) -> TraceDetail:
    async with _snapshot(ctx) as conn:
        trace = await queries.get_trace(conn, request.project_id, request.id)
        if trace is None:
            raise NotFound(f"trace {request.id} does not exist")
        observations = await queries.observations_of(conn, request.project_id, trace.id)
        observations = await queries.priced(conn, request.project_id, observations)
        scores = await score_queries.scores_of(conn, request.project_id, trace.id)
    return TraceDetail(trace=trace, observations=observations, scores=scores)


async def list_observations(ctx: Context, request: ListObservations) -> ObservationPage:
    async with _snapshot(ctx) as conn:
        try:
            data, cursor, meta = await queries.list_observations(conn, request)
        except InvalidCursor as exc:
            raise Invalid(str(exc)) from None
        data = await queries.priced(conn, request.project_id, data)
    return ObservationPage(data=data, cursor=cursor, meta=meta)


async def get_observation(ctx: Context, request: GetObservation) -> ObservationView:
    async with ctx.pool.acquire() as conn:
        found = await queries.get_observation(conn, request.project_id, request.id)
        if found is None:
            raise NotFound(f"observation {request.id} does not exist")
        [priced] = await queries.priced(conn, request.project_id, [found])
    return priced


async def list_scores(ctx: Context, request: ListScores) -> ScorePage:
    async with _snapshot(ctx) as conn:
        try:
            data, meta, cursor = await score_queries.list_scores(conn, request)
        except InvalidCursor as exc:
            raise Invalid(str(exc)) from None
    return ScorePage(data=data, meta=meta, cursor=cursor)


async def list_sessions(ctx: Context, request: ListSessions) -> SessionPage:
    async with _snapshot(ctx) as conn:
        data, meta = await queries.list_sessions(conn, request)
    return SessionPage(data=data, meta=meta)


async def get_session(ctx: Context, request: GetSession) -> SessionWithTraces:
    async with _snapshot(ctx) as conn:
        found = await queries.get_session(conn, request.project_id, request.id)
    if found is None:
        raise NotFound(f"session {request.id} does not exist")
    return SessionWithTraces(session=found[0], traces=found[1])


async def list_users(ctx: Context, request: ListUsers) -> UserPage:
    async with _snapshot(ctx) as conn:
        data, meta = await queries.list_users(conn, request)
    return UserPage(data=data, meta=meta)


async def prompt_generations(ctx: Context, request: PromptGenerations) -> PromptGenerationPage:
    async with _snapshot(ctx) as conn:
        data, meta = await prompt_usage.generations(conn, request)
        versions = await prompt_usage.usage(conn, request)
    return PromptGenerationPage(data=data, meta=meta, versions=versions)


async def delete_trace(ctx: Context, request: DeleteTraceRequest) -> DeletionAccepted:
    """Announce the trace's deletion (outbox): this service deletes it with its observations
    and scores, every other one what it holds of it, each confirming it."""
    deleted = TraceDeleted(
        project_id=request.project_id, project=request.project, trace_id=request.trace_id
    )
    event = new_event(deleted, source=ctx.source, project=request.project)
    async with transaction(ctx.pool) as conn:
        if not await store.trace_exists(conn, request.project_id, request.trace_id):
            raise NotFound(f"trace {request.trace_id} does not exist")
        await enqueue(conn, ctx.subjects, event)
    return DeletionAccepted(scope="trace", target=request.trace_id, request_id=event.id)


def register(ctx: Context) -> None:
    ctx.serve(Tracking.delete_trace, delete_trace)
    ctx.serve(Tracking.list_traces, list_traces)
    ctx.serve(Tracking.get_trace, get_trace, workers=16)  # evaluators read one per trace
    ctx.serve(Tracking.list_observations, list_observations)
    ctx.serve(Tracking.get_observation, get_observation)
    ctx.serve(Tracking.list_scores, list_scores)
    ctx.serve(Tracking.list_sessions, list_sessions)
    ctx.serve(Tracking.get_session, get_session)
    ctx.serve(Tracking.list_users, list_users)
    ctx.serve(Tracking.prompt_generations, prompt_generations)
