"""Request/reply: the deliveries of a webhook subscription or a connection, and their replay.

A replay puts deliveries back to pending, due now, and wakes this replica's worker. A
disabled target is not replayed: it would never be sent to.
"""

from __future__ import annotations

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection
from axonal_events.connections import ConnectionDeliveries, ConnectionInfo, ReplayConnection
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import (
    DeliveryList,
    ListDeliveries,
    ReplayDeliveries,
    ReplayResult,
    WebhookInfo,
)
from axonal_notifications.connections import store as connections_store
from axonal_notifications.context import Context
from axonal_notifications.deliveries import store
from axonal_notifications.webhooks import store as webhooks_store

__all__ = ["connection_deliveries", "deliveries", "register", "replay", "replay_connection"]


async def _webhook(conn: Connection, project: str, webhook_id: str) -> WebhookInfo:
    found = await webhooks_store.get(conn, project, webhook_id)
    if found is None:
        raise NotFound(f"not found: webhook {webhook_id} in {project}")
    return found


async def _connection(conn: Connection, project: str, name: str) -> ConnectionInfo:
    found = await connections_store.get(conn, project, name)
    if found is None:
        raise NotFound(f"not found: connection {name!r} in {project}")
    return found


async def deliveries(ctx: Context, request: ListDeliveries) -> DeliveryList:
    """A webhook subscription's newest deliveries with their attempts."""
    async with ctx.pool.acquire() as conn:
        await _webhook(conn, request.project, request.webhook_id)
        found = await store.list_for(conn, request.webhook_id, request.status, request.limit)
    return DeliveryList(deliveries=found)


async def replay(ctx: Context, request: ReplayDeliveries) -> ReplayResult:
    """Send a subscription's dead deliveries (in the window) again, or the one named."""
    async with ctx.pool.acquire() as conn:
        webhook = await _webhook(conn, request.project, request.webhook_id)
        if not webhook.enabled:
            raise Invalid(
                f"webhook {webhook.id} is disabled ({webhook.disabled_reason}): "
                "create a new subscription to receive its events again"
            )
        count = await store.replay(conn, webhook.id, request)
    if request.delivery_id is not None and count == 0:
        raise NotFound(f"not found: delivery {request.delivery_id} of webhook {webhook.id}")
    if count:
        ctx.wake_worker()
    return ReplayResult(replayed=count)


async def connection_deliveries(ctx: Context, request: ConnectionDeliveries) -> DeliveryList:
    """A connection's newest deliveries with their attempts."""
    async with ctx.pool.acquire() as conn:
        found = await _connection(conn, request.project, request.name)
        listed = await store.list_for(conn, found.id, request.status, request.limit)
    return DeliveryList(deliveries=listed)


async def replay_connection(ctx: Context, request: ReplayConnection) -> ReplayResult:
    """Send a connection's dead deliveries (in the window) again, or the one named."""
    async with ctx.pool.acquire() as conn:
        found = await _connection(conn, request.project, request.name)
        if not found.enabled:
            raise Invalid(
                f"connection {found.name!r} is disabled ({found.disabled_reason}): "
                "create it again to deliver through it"
            )
        count = await store.replay(conn, found.id, request)
    if request.delivery_id is not None and count == 0:
        raise NotFound(f"not found: delivery {request.delivery_id} of {found.name!r}")
    if count:
        ctx.wake_worker()
    return ReplayResult(replayed=count)


def register(ctx: Context) -> None:
    ctx.serve(Notifications.deliveries, deliveries)
    ctx.serve(Notifications.replay, replay)
    ctx.serve(Notifications.connection_deliveries, connection_deliveries)
    ctx.serve(Notifications.replay_connection, replay_connection)
