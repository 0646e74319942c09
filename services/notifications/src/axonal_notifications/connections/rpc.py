"""Request/reply: connections (create, list, get, delete).

Every reply carries secrets masked, except the signing secret of a ``webhook`` connection,
returned once by ``create_connection``. A target refused by the SSRF guard is named masked.
Their deliveries are listed and replayed by :mod:`axonal_notifications.deliveries.rpc`.
"""

from __future__ import annotations

import asyncpg

from axonal_bus.errors import Conflict, Invalid, NotFound
from axonal_events.connections import (
    ConnectionInfo,
    ConnectionKind,
    ConnectionList,
    ConnectionRef,
    ConnectionSpec,
    ListConnections,
)
from axonal_events.rpcs import Notifications
from axonal_notifications.connections import store
from axonal_notifications.context import Context
from axonal_notifications.domain.secrets import redact
from axonal_notifications.domain.signing import new_secret
from axonal_notifications.domain.targets import TargetRefused

__all__ = [
    "create_connection",
    "delete_connection",
    "get_connection",
    "list_connections",
    "register",
]


async def _check(ctx: Context, spec: ConnectionSpec) -> None:
    """Raise :class:`Invalid` when the guard refuses where ``spec`` delivers (URL masked)."""
    try:
        if spec.smtp is not None:
            await ctx.guard.check_host(spec.smtp.host)
        else:
            assert spec.url is not None  # every other kind has a url
            await ctx.guard.check_url(spec.url)
    except TargetRefused as exc:
        raise Invalid(redact(str(exc), [spec.url or ""])) from None


def _taken(spec: ConnectionSpec) -> Conflict:
    return Conflict(f"connection {spec.name!r} already exists in {spec.project}")


async def create_connection(ctx: Context, request: ConnectionSpec) -> ConnectionInfo:
    """Store the connection; a name taken in the project is a conflict."""
    await _check(ctx, request)
    secret = new_secret() if request.kind is ConnectionKind.WEBHOOK else ""
    async with ctx.pool.acquire() as conn:
        if await store.get(conn, request.project, request.name):
            raise _taken(request)
        try:
            return await store.create(conn, request, secret)
        except asyncpg.UniqueViolationError:
            raise _taken(request) from None


async def list_connections(ctx: Context, request: ListConnections) -> ConnectionList:
    async with ctx.pool.acquire() as conn:
        return ConnectionList(connections=await store.list_for(conn, request.project))


async def get_connection(ctx: Context, request: ConnectionRef) -> ConnectionInfo:
    async with ctx.pool.acquire() as conn:
        found = await store.get(conn, request.project, request.name)
    if found is None:
        raise NotFound(f"not found: connection {request.name!r} in {request.project}")
    return found


async def delete_connection(ctx: Context, request: ConnectionRef) -> ConnectionList:
    """Delete the connection with its deliveries and alert routes; replies with those left."""
    async with ctx.pool.acquire() as conn:
        if not await store.delete(conn, request.project, request.name):
            raise NotFound(f"not found: connection {request.name!r} in {request.project}")
        return ConnectionList(connections=await store.list_for(conn, request.project))


def register(ctx: Context) -> None:
    ctx.serve(Notifications.create_connection, create_connection)
    ctx.serve(Notifications.list_connections, list_connections)
    ctx.serve(Notifications.get_connection, get_connection)
    ctx.serve(Notifications.delete_connection, delete_connection)
