"""Request/reply: alert routes of a project (create, list, delete)."""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events.connections import (
    AlertRouteInfo,
    AlertRouteList,
    AlertRouteSpec,
    DeleteAlertRoute,
    ListAlertRoutes,
)
from axonal_notifications import routes_store
from axonal_notifications.connections_rpc import existing

__all__ = ["register"]


def register(ctx: ServiceContext) -> None:
    """Serve the alert route RPCs."""

    async def create_route(request: AlertRouteSpec) -> AlertRouteInfo:
        async with ctx.pool.acquire() as conn:
            target = await existing(conn, request.project, request.connection)
            return await routes_store.create(conn, request, target.id)

    async def list_routes(request: ListAlertRoutes) -> AlertRouteList:
        async with ctx.pool.acquire() as conn:
            return AlertRouteList(routes=await routes_store.list_for(conn, request.project))

    async def delete_route(request: DeleteAlertRoute) -> AlertRouteList:
        async with ctx.pool.acquire() as conn:
            if not await routes_store.delete(conn, request.project, request.id):
                raise Permanent(f"not found: alert route {request.id} in {request.project}")
            return AlertRouteList(routes=await routes_store.list_for(conn, request.project))

    ctx.serve_rpc("create_alert_route", AlertRouteSpec, create_route)
    ctx.serve_rpc("list_alert_routes", ListAlertRoutes, list_routes)
    ctx.serve_rpc("delete_alert_route", DeleteAlertRoute, delete_route)
