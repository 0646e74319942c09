"""Request/reply: alert routes of a project (create, list, delete)."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_events.connections import (
    AlertRouteInfo,
    AlertRouteList,
    AlertRouteSpec,
    DeleteAlertRoute,
    ListAlertRoutes,
)
from axonal_events.rpcs import Notifications
from axonal_notifications.connections import store as connections_store
from axonal_notifications.context import Context
from axonal_notifications.routes import store

__all__ = ["create_alert_route", "delete_alert_route", "list_alert_routes", "register"]


async def create_alert_route(ctx: Context, request: AlertRouteSpec) -> AlertRouteInfo:
    """Route alerts to the project's connection ``request.connection`` (which must exist)."""
    async with ctx.pool.acquire() as conn:
        target = await connections_store.get(conn, request.project, request.connection)
        if target is None:
            raise NotFound(f"not found: connection {request.connection!r} in {request.project}")
        return await store.create(conn, request, target.id)


async def list_alert_routes(ctx: Context, request: ListAlertRoutes) -> AlertRouteList:
    async with ctx.pool.acquire() as conn:
        return AlertRouteList(routes=await store.list_for(conn, request.project))


async def delete_alert_route(ctx: Context, request: DeleteAlertRoute) -> AlertRouteList:
    async with ctx.pool.acquire() as conn:
        if not await store.delete(conn, request.project, request.id):
            raise NotFound(f"not found: alert route {request.id} in {request.project}")
        return AlertRouteList(routes=await store.list_for(conn, request.project))


def register(ctx: Context) -> None:
    ctx.serve(Notifications.create_alert_route, create_alert_route)
    ctx.serve(Notifications.list_alert_routes, list_alert_routes)
    ctx.serve(Notifications.delete_alert_route, delete_alert_route)
