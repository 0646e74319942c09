"""Wiring only: the notifications service's definition, its delivery worker and senders."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
from faststream import FastStream

from axonal_bus.aio import cancel_and_wait
from axonal_bus.service import ServiceContext, ServiceDefinition, ServiceSettings, build_app
from axonal_db import create_pool
from axonal_notifications import connections_rpc, handlers, routes_rpc, rpc
from axonal_notifications.adapters.dns import SystemResolver
from axonal_notifications.adapters.http import Poster
from axonal_notifications.adapters.senders import Senders
from axonal_notifications.adapters.smtp import Mailer
from axonal_notifications.intake import Intake
from axonal_notifications.settings import NotificationSettings
from axonal_notifications.worker import DeliveryWorker, WorkerConfig

__all__ = ["MIGRATIONS", "VERSION", "build_notifications_app"]

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
VERSION = "0.1.0"


class _Runtime:
    """What lives as long as the service: one pooled HTTP client and the delivery worker.

    The worker has its own PostgreSQL pool whose commits do not wait for the WAL flush
    (``synchronous_commit = off``): all it writes is claims and outcomes, and what a crash of
    PostgreSQL could lose of those (the last few milliseconds) only makes an attempt be made
    again, which at-least-once delivery allows (receivers dedupe by ``webhook-id``). The
    deliveries themselves are inserted by the intake through the service's pool, durably,
    before their events are acknowledged.
    """

    def __init__(self, settings: NotificationSettings) -> None:
        self.settings = settings
        self.resolver = SystemResolver()
        self.policy = settings.target_policy()
        self._ctx: ServiceContext | None = None
        self._worker: DeliveryWorker | None = None
        self._worker_pool: asyncpg.Pool | None = None
        self._client: aiohttp.ClientSession | None = None
        self._tasks: list[asyncio.Task[Any]] = []

    def register(self, ctx: ServiceContext) -> None:
        self._ctx = ctx
        handlers.register(ctx, Intake(lambda: ctx.pool, ctx.subjects, self.wake))
        rpc.register(ctx, self.resolver, self.policy, self.wake)
        connections_rpc.register(ctx, self.resolver, self.policy, self.wake)
        routes_rpc.register(ctx)

    def wake(self) -> None:
        if self._worker is not None:
            self._worker.wake()

    async def start(self) -> None:
        assert self._ctx is not None  # registered before the application starts
        s = self.settings
        self._client = aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=s.concurrency),
            timeout=aiohttp.ClientTimeout(total=s.attempt_timeout),
            auto_decompress=False,
        )
        poster = Poster(self._client, s.attempt_timeout, self.resolver, self.policy)
        mailer = Mailer(s.attempt_timeout, self.resolver, self.policy)
        config = WorkerConfig(
            schedule=tuple(s.retry_schedule),
            timeout=s.attempt_timeout,
            breaker_threshold=s.breaker_threshold,
            breaker_cooldown=s.breaker_cooldown,
            concurrency=s.concurrency,
            poll_interval=s.poll_interval,
        )
        self._worker_pool = await create_pool(
            self._ctx.settings.database_url,
            schema=self._ctx.name,
            max_size=4,
            server_settings={"synchronous_commit": "off"},
        )
        senders = Senders(poster, mailer)
        self._worker = DeliveryWorker(self._worker_pool, self._ctx.subjects, senders, config)
        self._tasks.append(asyncio.create_task(self._worker.run(), name="webhook-worker"))

    async def stop(self) -> None:
        await cancel_and_wait(self._tasks)
        if self._client is not None:
            await self._client.close()
        if self._worker_pool is not None:
            await self._worker_pool.close()


def build_notifications_app(
    settings: ServiceSettings | None = None,
    notification_settings: NotificationSettings | None = None,
) -> FastStream:
    """The notifications service (:func:`~axonal_bus.service.build_app`) with its worker."""
    runtime = _Runtime(notification_settings or NotificationSettings())
    definition = ServiceDefinition(
        name="notifications", version=VERSION, migrations=MIGRATIONS, register=runtime.register
    )
    app = build_app(definition, settings)
    app.after_startup(runtime.start)
    app.on_shutdown(runtime.stop)
    return app
