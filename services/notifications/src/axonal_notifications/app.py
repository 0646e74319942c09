"""Wiring only: the notifications service's application, its delivery worker and senders."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path

import aiohttp
from faststream import FastStream

from axonal_bus.service import Service
from axonal_notifications.adapters.dns import SystemResolver
from axonal_notifications.adapters.http import Poster
from axonal_notifications.adapters.senders import Senders
from axonal_notifications.adapters.smtp import Mailer
from axonal_notifications.connections import rpc as connections_rpc
from axonal_notifications.context import Context
from axonal_notifications.deletion import handlers as deletion_handlers
from axonal_notifications.deliveries import handlers as deliveries_handlers
from axonal_notifications.deliveries import rpc as deliveries_rpc
from axonal_notifications.deliveries.worker import DeliveryWorker, WorkerConfig
from axonal_notifications.domain.targets import Resolver, TargetGuard, TargetPolicy
from axonal_notifications.ports import Sender
from axonal_notifications.routes import rpc as routes_rpc
from axonal_notifications.settings import NotificationSettings
from axonal_notifications.webhooks import rpc as webhooks_rpc

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="notifications",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: NotificationSettings) -> FastStream:
    """The notifications service on ``settings``: ``await build_app(settings).run()``."""
    resolver = SystemResolver()
    policy = settings.target_policy()
    worker = DeliveryWorker(
        settings.subjects,
        _worker_config(settings),
        partial(_open_senders, settings, resolver, policy),
    )
    ctx = Context(SERVICE, settings, guard=TargetGuard(resolver, policy), wake_worker=worker.wake)
    webhooks_rpc.register(ctx)
    connections_rpc.register(ctx)
    routes_rpc.register(ctx)
    deliveries_rpc.register(ctx)
    deliveries_handlers.register(ctx)
    ctx.on_startup(worker.start)
    ctx.on_shutdown(worker.stop)
    deletion_handlers.register(ctx)
    return ctx.application()


def _worker_config(settings: NotificationSettings) -> WorkerConfig:
    return WorkerConfig(
        database_url=settings.database_url,
        schema=SERVICE.name,
        schedule=tuple(settings.retry_schedule),
        timeout=settings.attempt_timeout,
        breaker_threshold=settings.breaker_threshold,
        breaker_cooldown=settings.breaker_cooldown,
        concurrency=settings.concurrency,
        poll_interval=settings.poll_interval,
    )


@asynccontextmanager
async def _open_senders(
    settings: NotificationSettings, resolver: Resolver, policy: TargetPolicy
) -> AsyncIterator[Sender]:
    """Email over SMTP, everything else over one pooled HTTP client (closed after)."""
    client = aiohttp.ClientSession(
        connector=aiohttp.TCPConnector(limit=settings.concurrency),
        timeout=aiohttp.ClientTimeout(total=settings.attempt_timeout),
        auto_decompress=False,
    )
    try:
        poster = Poster(client, settings.attempt_timeout, resolver, policy)
        yield Senders(poster, Mailer(settings.attempt_timeout, resolver, policy))
    finally:
        await client.close()
