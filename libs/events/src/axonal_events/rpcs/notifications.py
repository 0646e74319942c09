"""The notifications service's RPCs: webhook subscriptions, connections, alert routes,
their deliveries and replays."""

from __future__ import annotations

from axonal_events.connections import (
    AlertRouteInfo,
    AlertRouteList,
    AlertRouteSpec,
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
from axonal_events.rpc import Rpc
from axonal_events.webhooks import (
    DeleteWebhook,
    DeliveryList,
    ListDeliveries,
    ListWebhooks,
    ReplayDeliveries,
    ReplayResult,
    WebhookInfo,
    WebhookList,
    WebhookSpec,
)

__all__ = ["Notifications"]


class Notifications:
    """Webhook subscriptions, connections, alert routes, their deliveries and replays."""

    create_webhook = Rpc(
        "notifications", "create_webhook", WebhookSpec, WebhookInfo, "Subscribe a URL."
    )
    list_webhooks = Rpc(
        "notifications", "list_webhooks", ListWebhooks, WebhookList, "Subscriptions."
    )
    delete_webhook = Rpc(
        "notifications", "delete_webhook", DeleteWebhook, WebhookList, "Unsubscribe a URL."
    )
    deliveries = Rpc(
        "notifications", "deliveries", ListDeliveries, DeliveryList, "A webhook's deliveries."
    )
    replay = Rpc(
        "notifications", "replay", ReplayDeliveries, ReplayResult, "Deliver dead ones again."
    )
    create_connection = Rpc(
        "notifications", "create_connection", ConnectionSpec, ConnectionInfo, "Add a target."
    )
    list_connections = Rpc(
        "notifications", "list_connections", ListConnections, ConnectionList, "Targets."
    )
    get_connection = Rpc(
        "notifications", "get_connection", ConnectionRef, ConnectionInfo, "One target."
    )
    delete_connection = Rpc(
        "notifications", "delete_connection", ConnectionRef, ConnectionList, "Remove a target."
    )
    connection_deliveries = Rpc(
        "notifications",
        "connection_deliveries",
        ConnectionDeliveries,
        DeliveryList,
        "A connection's deliveries.",
    )
    replay_connection = Rpc(
        "notifications",
        "replay_connection",
        ReplayConnection,
        ReplayResult,
        "Deliver a connection's dead deliveries again.",
    )
    create_alert_route = Rpc(
        "notifications", "create_alert_route", AlertRouteSpec, AlertRouteInfo, "Route alerts."
    )
    list_alert_routes = Rpc(
        "notifications", "list_alert_routes", ListAlertRoutes, AlertRouteList, "Alert routes."
    )
    delete_alert_route = Rpc(
        "notifications", "delete_alert_route", DeleteAlertRoute, AlertRouteList, "Remove one."
    )
