"""Traces read from the tracking service over its RPCs (never its tables)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import NoRespondersError, RemoteError, RpcTimeoutError, Unavailable
from axonal_evaluation.context import Context
from axonal_events import ErrorCode
from axonal_events.rpcs import Tracking
from axonal_events.trace_reads import GetTrace, TraceDetail

__all__ = ["trace_details"]

_TIMEOUT = 10.0
_PARALLEL = 8


async def _detail(ctx: Context, project_id: str, trace_id: str) -> TraceDetail | None:
    request = GetTrace(project_id=project_id, id=trace_id)
    try:
        return await rpc.call(
            core(ctx.broker), ctx.subjects, Tracking.get_trace, request, timeout=_TIMEOUT
        )
    except RemoteError as exc:
        if exc.code == ErrorCode.NOT_FOUND:
            return None
        raise Unavailable(f"tracking cannot read trace {trace_id}: {exc}") from None
    except (NoRespondersError, RpcTimeoutError) as exc:
        raise Unavailable(f"tracking cannot read trace {trace_id}: {exc}") from None


async def trace_details(
    ctx: Context, project_id: str, trace_ids: Iterable[str]
) -> dict[str, TraceDetail]:
    """The stored traces among ``trace_ids``, by id; :class:`Unavailable` if tracking cannot
    answer."""
    ids = list(dict.fromkeys(trace_ids))
    limit = asyncio.Semaphore(_PARALLEL)

    async def one(trace_id: str) -> TraceDetail | None:
        async with limit:
            return await _detail(ctx, project_id, trace_id)

    found = await asyncio.gather(*(one(t) for t in ids))
    return {d.trace.id: d for d in found if d is not None}
