"""``/api/v1/{owner}/{project}/connections`` and ``.../alert-routes``: notifier targets.

A connection is a named target (generic signed webhook, Slack, Discord, Mattermost, Microsoft
Teams, PagerDuty, email) that hooks name and alert routes send to; its secrets are shown
masked (see the notifications service). An alert route sends the project's events matching
its filters to one connection, once per alert within its de-duplication window.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_api.routes.webhooks import replay_bounds
from axonal_events.connections import (
    AlertRouteConfig,
    AlertRouteInfo,
    AlertRouteList,
    AlertRouteSpec,
    ConnectionConfig,
    ConnectionDeliveries,
    ConnectionInfo,
    ConnectionList,
    ConnectionRef,
    ConnectionSpec,
    DeleteAlertRoute,
    ListAlertRoutes,
    ListConnections,
    ReplayConnection,
)
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import DeliveryList, DeliveryStatus, ReplayResult, ReplayWindow

__all__ = ["router"]

connections = APIRouter(
    prefix="/api/v1/{owner}/{project}/connections", tags=["connections"], responses=ERRORS
)
alert_routes = APIRouter(
    prefix="/api/v1/{owner}/{project}/alert-routes", tags=["alert-routes"], responses=ERRORS
)
Name = Annotated[
    str, Path(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$", description="The connection's name.")
]
RouteId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The route's id.")]
DeliveryId = Annotated[
    str, Path(min_length=1, max_length=100, description="The delivery's id (the event's id).")
]


@connections.post("", status_code=201, summary="Create a named notifier target")
async def create_connection(
    gw: GatewayDep, owner: Owner, project: Project, connection: ConnectionConfig
) -> ConnectionInfo:
    spec = ConnectionSpec(project=f"{owner}/{project}", **connection.model_dump())
    return await gw.call(Notifications.create_connection, spec)


@connections.get("", summary="List the connections, secrets masked")
async def list_connections(gw: GatewayDep, owner: Owner, project: Project) -> ConnectionList:
    query = ListConnections(project=f"{owner}/{project}")
    return await gw.call(Notifications.list_connections, query)


@connections.get("/{name}", summary="One connection, secrets masked")
async def get_connection(
    gw: GatewayDep, owner: Owner, project: Project, name: Name
) -> ConnectionInfo:
    query = ConnectionRef(project=f"{owner}/{project}", name=name)
    return await gw.call(Notifications.get_connection, query)


@connections.delete(
    "/{name}",
    summary="Delete a connection, its deliveries and routes; those left",
)
async def delete_connection(
    gw: GatewayDep, owner: Owner, project: Project, name: Name
) -> ConnectionList:
    query = ConnectionRef(project=f"{owner}/{project}", name=name)
    return await gw.call(Notifications.delete_connection, query)


@connections.get(
    "/{name}/deliveries",
    summary="The newest deliveries through a connection with their attempts",
)
async def list_deliveries(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    name: Name,
    status: Annotated[DeliveryStatus | None, Query(description="Only this status.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> DeliveryList:
    query = ConnectionDeliveries(
        project=f"{owner}/{project}", name=name, status=status, limit=limit
    )
    return await gw.call(Notifications.connection_deliveries, query)


@connections.post(
    "/{name}/replay",
    summary="Send every dead delivery again, or those created in a time window",
)
async def replay_dead(
    gw: GatewayDep, owner: Owner, project: Project, name: Name, window: ReplayWindow | None = None
) -> ReplayResult:
    query = ReplayConnection(project=f"{owner}/{project}", name=name, **replay_bounds(window))
    return await gw.call(Notifications.replay_connection, query)


@connections.post(
    "/{name}/deliveries/{delivery_id}/replay",
    summary="Send one delivery again",
)
async def replay_one(
    gw: GatewayDep, owner: Owner, project: Project, name: Name, delivery_id: DeliveryId
) -> ReplayResult:
    query = ReplayConnection(project=f"{owner}/{project}", name=name, delivery_id=delivery_id)
    return await gw.call(Notifications.replay_connection, query)


@alert_routes.post("", status_code=201, summary="Send matching events to a connection")
async def create_route(
    gw: GatewayDep, owner: Owner, project: Project, route: AlertRouteConfig
) -> AlertRouteInfo:
    spec = AlertRouteSpec(project=f"{owner}/{project}", **route.model_dump())
    return await gw.call(Notifications.create_alert_route, spec)


@alert_routes.get("", summary="List the alert routes")
async def list_routes(gw: GatewayDep, owner: Owner, project: Project) -> AlertRouteList:
    query = ListAlertRoutes(project=f"{owner}/{project}")
    return await gw.call(Notifications.list_alert_routes, query)


@alert_routes.delete("/{route_id}", summary="Delete a route; those left")
async def delete_route(
    gw: GatewayDep, owner: Owner, project: Project, route_id: RouteId
) -> AlertRouteList:
    query = DeleteAlertRoute(project=f"{owner}/{project}", id=route_id)
    return await gw.call(Notifications.delete_alert_route, query)


router = APIRouter()
router.include_router(connections)
router.include_router(alert_routes)
