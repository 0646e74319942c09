"""``/api/v1/{owner}/{project}/webhooks``: signed webhook subscriptions and their deliveries.

Each event of the project that a subscription wants is POSTed to its URL as the CloudEvent
it is on the bus, signed per the Standard Webhooks spec with the secret returned once at
creation (see the notifications service).
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import (
    DeleteWebhook,
    DeliveryList,
    DeliveryStatus,
    ListDeliveries,
    ListWebhooks,
    ReplayDeliveries,
    ReplayResult,
    ReplayWindow,
    WebhookConfig,
    WebhookInfo,
    WebhookList,
    WebhookSpec,
)

__all__ = ["replay_bounds", "router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/webhooks", tags=["webhooks"], responses=ERRORS)
WebhookId = Annotated[str, Path(pattern=r"^[0-9a-f]{32}$", description="The webhook's id.")]
DeliveryId = Annotated[
    str, Path(min_length=1, max_length=100, description="The delivery's id (the event's id).")
]


@router.post("", status_code=201, summary="Subscribe a URL to events; the secret is shown once")
async def create_webhook(
    gw: GatewayDep, owner: Owner, project: Project, webhook: WebhookConfig
) -> WebhookInfo:
    spec = WebhookSpec(project=f"{owner}/{project}", **webhook.model_dump())
    return await gw.call(Notifications.create_webhook, spec)


@router.get("", summary="List the webhook subscriptions")
async def list_webhooks(gw: GatewayDep, owner: Owner, project: Project) -> WebhookList:
    query = ListWebhooks(project=f"{owner}/{project}")
    return await gw.call(Notifications.list_webhooks, query)


@router.delete("/{webhook_id}", summary="Delete a subscription and its deliveries; those left")
async def delete_webhook(
    gw: GatewayDep, owner: Owner, project: Project, webhook_id: WebhookId
) -> WebhookList:
    query = DeleteWebhook(project=f"{owner}/{project}", id=webhook_id)
    return await gw.call(Notifications.delete_webhook, query)


@router.get("/{webhook_id}/deliveries", summary="The newest deliveries with their attempts")
async def list_deliveries(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    webhook_id: WebhookId,
    status: Annotated[DeliveryStatus | None, Query(description="Only this status.")] = None,
    limit: Annotated[int, Query(ge=1, le=1000)] = 100,
) -> DeliveryList:
    query = ListDeliveries(
        project=f"{owner}/{project}", webhook_id=webhook_id, status=status, limit=limit
    )
    return await gw.call(Notifications.deliveries, query)


@router.post(
    "/{webhook_id}/replay",
    summary="Send every dead delivery again, or those created in a time window",
)
async def replay_dead(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    webhook_id: WebhookId,
    window: ReplayWindow | None = None,
) -> ReplayResult:
    query = ReplayDeliveries(
        project=f"{owner}/{project}", webhook_id=webhook_id, **replay_bounds(window)
    )
    return await gw.call(Notifications.replay, query)


@router.post("/{webhook_id}/deliveries/{delivery_id}/replay", summary="Send one delivery again")
async def replay_one(
    gw: GatewayDep, owner: Owner, project: Project, webhook_id: WebhookId, delivery_id: DeliveryId
) -> ReplayResult:
    query = ReplayDeliveries(
        project=f"{owner}/{project}", webhook_id=webhook_id, delivery_id=delivery_id
    )
    return await gw.call(Notifications.replay, query)


def replay_bounds(window: ReplayWindow | None) -> dict[str, datetime | None]:
    """The ``since`` and ``until`` of a replay request's optional body."""
    return {"since": None, "until": None} if window is None else window.model_dump()
