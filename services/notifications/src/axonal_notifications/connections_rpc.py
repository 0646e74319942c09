"""Request/reply: connections (create, list, get, delete), their deliveries and replay.

Every reply carries secrets masked, except the signing secret of a ``webhook`` connection,
returned once by ``create_connection``. A target refused by the SSRF guard is named masked.
"""

from __future__ import annotations

from collections.abc import Callable

import asyncpg

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection
from axonal_events.connections import (
    ConnectionDeliveries,
    ConnectionInfo,
    ConnectionKind,
    ConnectionList,
    ConnectionRef,
    ConnectionSpec,
    ListConnections,
    ReplayConnection,
)
from axonal_events.webhooks import DeliveryList, ReplayResult
from axonal_notifications import connections_store, deliveries_store
from axonal_notifications.domain.secrets import redact
from axonal_notifications.domain.signing import new_secret
from axonal_notifications.domain.targets import (
    Resolver,
    TargetPolicy,
    TargetRefused,
    check_host,
    check_target,
)

__all__ = ["existing", "register"]


async def existing(conn: Connection, project: str, name: str) -> ConnectionInfo:
    found = await connections_store.get(conn, project, name)
    if found is None:
        raise Permanent(f"not found: connection {name!r} in {project}")
    return found


def _taken(spec: ConnectionSpec) -> Permanent:
    return Permanent(f"connection {spec.name!r} already exists in {spec.project}")


def register(
    ctx: ServiceContext, resolver: Resolver, policy: TargetPolicy, replayed: Callable[[], None]
) -> None:
    """Serve the connection RPCs; ``replayed`` is called when deliveries were put back."""

    async def check(spec: ConnectionSpec) -> None:
        try:
            if spec.smtp is not None:
                await check_host(spec.smtp.host, resolver, policy)
            else:
                assert spec.url is not None  # every other kind has a url
                await check_target(spec.url, resolver, policy)
        except TargetRefused as exc:
            raise Permanent(redact(str(exc), [spec.url or ""])) from None

    async def create(request: ConnectionSpec) -> ConnectionInfo:
        await check(request)
        secret = new_secret() if request.kind is ConnectionKind.WEBHOOK else ""
        async with ctx.pool.acquire() as conn:
            if await connections_store.get(conn, request.project, request.name):
                raise _taken(request)
            try:
                return await connections_store.create(conn, request, secret)
            except asyncpg.UniqueViolationError:
                raise _taken(request) from None

    async def list_connections(request: ListConnections) -> ConnectionList:
        async with ctx.pool.acquire() as conn:
            found = await connections_store.list_for(conn, request.project)
        return ConnectionList(connections=found)

    async def get(request: ConnectionRef) -> ConnectionInfo:
        async with ctx.pool.acquire() as conn:
            return await existing(conn, request.project, request.name)

    async def delete(request: ConnectionRef) -> ConnectionList:
        async with ctx.pool.acquire() as conn:
            if not await connections_store.delete(conn, request.project, request.name):
                raise Permanent(f"not found: connection {request.name!r} in {request.project}")
            return ConnectionList(
                connections=await connections_store.list_for(conn, request.project)
            )

    async def deliveries(request: ConnectionDeliveries) -> DeliveryList:
        async with ctx.pool.acquire() as conn:
            found = await existing(conn, request.project, request.name)
            listed = await deliveries_store.list_for(conn, found.id, request.status, request.limit)
        return DeliveryList(deliveries=listed)

    async def replay(request: ReplayConnection) -> ReplayResult:
        async with ctx.pool.acquire() as conn:
            found = await existing(conn, request.project, request.name)
            if not found.enabled:
                raise Permanent(
                    f"connection {found.name!r} is disabled ({found.disabled_reason}): "
                    "create it again to deliver through it"
                )
            count = await deliveries_store.replay(conn, found.id, request.delivery_id)
        if request.delivery_id is not None and count == 0:
            raise Permanent(f"not found: delivery {request.delivery_id} of {found.name!r}")
        if count:
            replayed()
        return ReplayResult(replayed=count)

    ctx.serve_rpc("create_connection", ConnectionSpec, create)
    ctx.serve_rpc("list_connections", ListConnections, list_connections)
    ctx.serve_rpc("get_connection", ConnectionRef, get)
    ctx.serve_rpc("delete_connection", ConnectionRef, delete)
    ctx.serve_rpc("connection_deliveries", ConnectionDeliveries, deliveries)
    ctx.serve_rpc("replay_connection", ReplayConnection, replay)
