"""Request/reply: subscriptions (create, list, delete), their deliveries, and replay."""

from __future__ import annotations

from collections.abc import Callable

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection
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
from axonal_notifications import deliveries_store, webhooks_store
from axonal_notifications.domain.signing import new_secret
from axonal_notifications.domain.targets import (
    Resolver,
    TargetPolicy,
    TargetRefused,
    check_target,
)

__all__ = ["register"]


async def _existing(conn: Connection, project: str, webhook_id: str) -> WebhookInfo:
    found = await webhooks_store.get(conn, project, webhook_id)
    if found is None:
        raise Permanent(f"not found: webhook {webhook_id} in {project}")
    return found


def register(
    ctx: ServiceContext, resolver: Resolver, policy: TargetPolicy, replayed: Callable[[], None]
) -> None:
    """Serve the webhook RPCs; ``replayed`` is called when deliveries were put back."""

    async def create(request: WebhookSpec) -> WebhookInfo:
        try:
            await check_target(request.url, resolver, policy)
        except TargetRefused as exc:
            raise Permanent(str(exc)) from None
        async with ctx.pool.acquire() as conn:
            return await webhooks_store.create(conn, request, new_secret())

    async def list_webhooks(request: ListWebhooks) -> WebhookList:
        async with ctx.pool.acquire() as conn:
            return WebhookList(webhooks=await webhooks_store.list_for(conn, request.project))

    async def delete(request: DeleteWebhook) -> WebhookList:
        async with ctx.pool.acquire() as conn:
            if not await webhooks_store.delete(conn, request.project, request.id):
                raise Permanent(f"not found: webhook {request.id} in {request.project}")
            return WebhookList(webhooks=await webhooks_store.list_for(conn, request.project))

    async def deliveries(request: ListDeliveries) -> DeliveryList:
        async with ctx.pool.acquire() as conn:
            await _existing(conn, request.project, request.webhook_id)
            found = await deliveries_store.list_for(
                conn, request.webhook_id, request.status, request.limit
            )
        return DeliveryList(deliveries=found)

    async def replay(request: ReplayDeliveries) -> ReplayResult:
        async with ctx.pool.acquire() as conn:
            webhook = await _existing(conn, request.project, request.webhook_id)
            if not webhook.enabled:
                raise Permanent(
                    f"webhook {webhook.id} is disabled ({webhook.disabled_reason}): "
                    "create a new subscription to receive its events again"
                )
            count = await deliveries_store.replay(conn, webhook.id, request.delivery_id)
        if request.delivery_id is not None and count == 0:
            raise Permanent(f"not found: delivery {request.delivery_id} of webhook {webhook.id}")
        if count:
            replayed()
        return ReplayResult(replayed=count)

    ctx.serve_rpc("create_webhook", WebhookSpec, create)
    ctx.serve_rpc("list_webhooks", ListWebhooks, list_webhooks)
    ctx.serve_rpc("delete_webhook", DeleteWebhook, delete)
    ctx.serve_rpc("deliveries", ListDeliveries, deliveries)
    ctx.serve_rpc("replay", ReplayDeliveries, replay)
