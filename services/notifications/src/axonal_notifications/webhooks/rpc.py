"""Request/reply: webhook subscriptions (create, list, delete).

Their deliveries are listed and replayed by :mod:`axonal_notifications.deliveries.rpc`.
"""

from __future__ import annotations

from axonal_bus.errors import Invalid, NotFound
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import (
    DeleteWebhook,
    ListWebhooks,
    WebhookInfo,
    WebhookList,
    WebhookSpec,
)
from axonal_notifications.context import Context
from axonal_notifications.domain.signing import new_secret
from axonal_notifications.domain.targets import TargetRefused
from axonal_notifications.webhooks import store

__all__ = ["create_webhook", "delete_webhook", "list_webhooks", "register"]


async def create_webhook(ctx: Context, request: WebhookSpec) -> WebhookInfo:
    """Subscribe ``request.url`` (refused when the target guard refuses it); the reply is the
    only one that carries the signing secret."""
    try:
        await ctx.guard.check_url(request.url)
    except TargetRefused as exc:
        raise Invalid(str(exc)) from None
    async with ctx.pool.acquire() as conn:
        return await store.create(conn, request, new_secret())


async def list_webhooks(ctx: Context, request: ListWebhooks) -> WebhookList:
    async with ctx.pool.acquire() as conn:
        return WebhookList(webhooks=await store.list_for(conn, request.project))


async def delete_webhook(ctx: Context, request: DeleteWebhook) -> WebhookList:
    """Delete the subscription (its deliveries go with it); replies with those left."""
    async with ctx.pool.acquire() as conn:
        if not await store.delete(conn, request.project, request.id):
            raise NotFound(f"not found: webhook {request.id} in {request.project}")
        return WebhookList(webhooks=await store.list_for(conn, request.project))


def register(ctx: Context) -> None:
    ctx.serve(Notifications.create_webhook, create_webhook)
    ctx.serve(Notifications.list_webhooks, list_webhooks)
    ctx.serve(Notifications.delete_webhook, delete_webhook)
