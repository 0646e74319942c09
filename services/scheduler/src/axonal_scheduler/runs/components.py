"""What the scheduler reads of other services, over RPC: a submission's ``hubRef``
components (the registry) and the metrics a join reads (the tracking service).

The registry answers with the owner's pushed version or a built-in one. When it does not
answer at all, the built-in components still resolve; any other reference waits for it (the
command is retried) rather than failing a run that would compile once it is back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_bus import rpc
from axonal_bus.broker import core
from axonal_bus.errors import NoRespondersError, RemoteError, RpcTimeoutError, Unavailable
from axonal_events import ErrorCode
from axonal_events.hub import ResolveComponent
from axonal_events.metrics import ReadLatest
from axonal_events.rpcs import Registry, Tracking
from axonal_scheduler.context import Context
from axonal_spec import SpecError
from axonal_spec.hub import builtin_hub, document_of

__all__ = ["fetch_component", "latest_metrics"]

_TIMEOUT = 5.0
_REFUSED = (ErrorCode.NOT_FOUND, ErrorCode.INVALID)


def _builtin(ref: str) -> Mapping[str, Any] | SpecError:
    """``ref`` among the built-in components only."""
    try:
        return builtin_hub().resolve(ref)
    except SpecError as exc:
        return exc


async def fetch_component(ctx: Context, ref: str) -> Mapping[str, Any] | SpecError:
    """The component ``ref`` names, or a :class:`SpecError` at ``hubRef`` saying why there is
    none; :class:`Unavailable` when only the registry could tell."""
    request = ResolveComponent(ref=ref)
    try:
        found = await rpc.call(
            core(ctx.broker), ctx.subjects, Registry.resolve_component, request, timeout=_TIMEOUT
        )
    except RemoteError as exc:
        if exc.code in _REFUSED:
            return SpecError.at("hubRef", exc.remote_message)
        raise Unavailable(f"the registry cannot resolve `{ref}` now: {exc}") from None
    except (NoRespondersError, RpcTimeoutError) as exc:
        builtin = _builtin(ref)
        if isinstance(builtin, SpecError):
            raise Unavailable(f"`{ref}` is no built-in component and {exc}") from None
        return builtin
    return document_of(ref, found.content)


async def latest_metrics(ctx: Context, run_uuids: list[str]) -> Mapping[str, Mapping[str, Any]]:
    """The last value of each metric of ``run_uuids`` (a join that reads metrics); the
    tracking service away is :class:`Unavailable` (the command is tried again later)."""
    request = ReadLatest(run_uuids=run_uuids)
    try:
        found = await rpc.call(
            core(ctx.broker), ctx.subjects, Tracking.latest, request, timeout=_TIMEOUT
        )
    except (RemoteError, NoRespondersError, RpcTimeoutError) as exc:
        raise Unavailable(f"the tracking service cannot read metrics now: {exc}") from None
    return found.values
