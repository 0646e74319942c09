"""The runtime every service shares: settings, database, broker, consumers, RPCs, ping.

A service's ``app.py`` builds a :class:`ServiceContext` from its :class:`Service` and its
settings, hands it to each of its modules' ``register(ctx)`` (which call :meth:`serve`,
:meth:`consume`, :meth:`consume_events` and :meth:`consume_batches` with module-level
handlers) and returns :meth:`ServiceContext.application`. Every handler receives the context
as its first argument. Start-up order: logging, PostgreSQL pool, migrations (bus tables and
the service's own, under an advisory lock), subscribers, broker, batch consumers, outbox
relay, start-up hooks. SIGTERM/SIGINT stop it cleanly in the reverse order.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

import asyncpg
import structlog
from faststream import ContextRepo, FastStream
from pydantic import BaseModel, Field

from axonal_bus import rpc
from axonal_bus.aio import cancel_and_wait
from axonal_bus.batches import BatchConsumer
from axonal_bus.broker import create_broker, jetstream
from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.dlq_relay import register_dlq_relay
from axonal_bus.housekeeping import keep_tables_small
from axonal_bus.log import configure_logging
from axonal_bus.outbox import OutboxRelay, PendingEvents
from axonal_bus.ping import serve_ping
from axonal_bus.retry import RetryPolicy
from axonal_bus.schema import BUS_MIGRATIONS
from axonal_bus.settings import BusSettings
from axonal_db import MigrationSource, create_pool, migrate
from axonal_events import CATALOG, CloudEvent, EventData, Rpc

__all__ = ["CONTEXT_KEY", "Hook", "Service", "ServiceContext", "ServiceSettings"]

log = structlog.get_logger(__name__)

Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)
T = TypeVar("T")
Hook = Callable[[], Awaitable[None]]
#: Where an application built by :meth:`ServiceContext.application` keeps its context.
CONTEXT_KEY = "service_context"


class ServiceSettings(BusSettings):
    """``AXONAL_DATABASE_URL``, ``AXONAL_LOG_LEVEL``, ``AXONAL_LOG_JSON``, ``AXONAL_REPLICA`` and
    ``AXONAL_REPLICAS`` on top of the bus settings. A service subclasses it in its
    ``settings.py`` with its own fields under its own prefix (``AXONAL_<NAME>_``)."""

    database_url: str = Field(
        default="postgresql://postgres@127.0.0.1:5432/axonal",
        validation_alias="AXONAL_DATABASE_URL",
    )
    log_level: str = Field(default="INFO", validation_alias="AXONAL_LOG_LEVEL")
    log_json: bool | None = Field(default=None, validation_alias="AXONAL_LOG_JSON")
    replica: int | None = Field(
        default=None,
        ge=1,
        validation_alias="AXONAL_REPLICA",
        description="This process's number among its service's replicas, when it has one (the "
        "embedded stack pings each replica by it).",
    )
    replicas: int = Field(
        default=1,
        ge=1,
        validation_alias="AXONAL_REPLICAS",
        description="How many replicas of the service share its work: a rate it enforces per "
        "project or rule is split between them, each holding its share.",
    )


S = TypeVar("S", bound=ServiceSettings)


@dataclass(frozen=True, slots=True)
class Service:
    """What a service is.

    Args:
        name: ``identity``, ``scheduler``...: its schema, durable prefix and RPC namespace.
        version: reported by ping.
        migrations: folder of the service's ``NNNN_name.sql`` files.
    """

    name: str
    version: str
    migrations: Path


class ServiceContext(Generic[S]):
    """What every handler of a running service receives first: settings, bus, database.

    ``pool`` is available once the service has started (handlers only run after that).
    """

    def __init__(self, service: Service, settings: S) -> None:
        configure_logging(settings.log_level, json=settings.log_json)
        self.service = service
        self.name = service.name
        self.settings = settings
        self.subjects = settings.subjects
        self.source = f"/axonal/{service.name}"
        self.broker = create_broker(settings, service=service.name)
        self._pool: asyncpg.Pool | None = None
        self._relay: OutboxRelay | None = None
        self._batch_consumers: list[BatchConsumer[Any]] = []
        self._on_startup: list[Hook] = []
        self._on_shutdown: list[Hook] = []

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError(f"{self.name} is not started: no database pool yet")
        return self._pool

    async def publish_committed(self, events: PendingEvents) -> None:
        """Publish what a committed transaction wrote with ``events.flush(conn, direct=True)``
        (its relay publishes it instead if this fails, or before the service has started)."""
        rows, events.written = events.written, []
        if self._relay is not None:
            await self._relay.publish_now(rows)

    @property
    def inbox_prefix(self) -> str:
        """The reply subjects of this service's NATS requests."""
        return self.subjects.inbox_prefix(self.name)

    def serve(
        self,
        method: Rpc[Req, Res],
        handler: Callable[[Self, Req], Awaitable[Res]],
        *,
        workers: int = 1,
    ) -> None:
        """Answer ``method`` with ``handler(ctx, request)``; replicas share the requests, each
        answering up to ``workers`` at once (for a read that waits on the database)."""
        if method.service != self.name:
            raise ValueError(f"{self.name} cannot serve {method.service}.{method.method}")
        handle = partial(handler, self)
        rpc.serve(self.broker, self.subjects, method, handle, queue=self.name, workers=workers)

    def consume(self, spec: ConsumerSpec[T], handler: Callable[[Self, T], Awaitable[None]]) -> None:
        """Consume ``spec``'s durable one message at a time: ``handler(ctx, message)``."""
        subscribe(
            self.broker, self.subjects, spec, partial(handler, self), inbox_prefix=self.inbox_prefix
        )

    def consume_events(
        self,
        durable: str,
        event_types: Sequence[str],
        handler: Callable[[Self, CloudEvent[EventData]], Awaitable[None]],
        *,
        policy: RetryPolicy | None = None,
        **options: Any,
    ) -> None:
        """Consume events of ``event_types`` (``run.done``, ``run.*``) decoded by the catalog;
        ``options`` are :class:`ConsumerSpec` fields (``ack_wait``, ``batch_size``...)."""
        spec: ConsumerSpec[CloudEvent[EventData]] = ConsumerSpec(
            durable=durable,
            filter_subjects=[self.subjects.event(t) for t in event_types],
            decode=CATALOG.decode,
            policy=policy or RetryPolicy(),
            **options,
        )
        self.consume(spec, handler)

    def consume_batches(
        self,
        spec: ConsumerSpec[T],
        handler: Callable[[Self, Sequence[T]], Awaitable[None]],
        *,
        ignored: frozenset[str] = frozenset(),
    ) -> None:
        """Consume ``spec``'s durable in batches (:mod:`axonal_bus.batches`):
        ``handler(ctx, batch)``; messages on ``ignored`` subjects are acknowledged unread."""
        self._batch_consumers.append(BatchConsumer(spec, partial(handler, self), ignored))

    def on_startup(self, hook: Hook) -> None:
        """Run ``hook`` once the service is up (pool, broker and consumers running)."""
        self._on_startup.append(hook)

    def on_shutdown(self, hook: Hook) -> None:
        """Run ``hook`` when the service stops, before its pool closes."""
        self._on_shutdown.append(hook)

    def application(self) -> FastStream:
        """The FastStream application of the service, ready for ``await app.run()``."""
        return _Runtime(self).application()


class _Runtime:
    """Start and stop of one service: pool, migrations, batch consumers, relay, health."""

    def __init__(self, ctx: ServiceContext[Any]) -> None:
        self.ctx = ctx
        self.started = False
        self.tasks: list[asyncio.Task[Any]] = []

    async def checks(self) -> dict[str, str]:
        if not self.started:
            return {"subscribers": "starting"}
        try:
            await self.ctx.pool.fetchval("SELECT 1")
        except Exception as exc:  # noqa: BLE001 - reported as a health state
            return {"database": f"error: {exc}"}
        return {"database": "ok"}

    @contextlib.asynccontextmanager
    async def lifespan(self, _: ContextRepo) -> AsyncIterator[None]:
        ctx, name = self.ctx, self.ctx.name
        pool = await create_pool(ctx.settings.database_url, schema=name)
        sources = [BUS_MIGRATIONS, MigrationSource(name, ctx.service.migrations)]
        applied = await migrate(pool, schema=name, sources=sources)
        log.info("service.migrated", service=name, applied=len(applied))
        ctx._pool = pool
        try:
            yield
        finally:
            await pool.close()

    async def start(self) -> None:
        ctx = self.ctx
        for consumer in ctx._batch_consumers:
            await consumer.open(jetstream(ctx.broker), ctx.subjects, inbox_prefix=ctx.inbox_prefix)
            self.tasks.append(asyncio.create_task(consumer.run(), name=consumer.spec.durable))
        relay = ctx._relay = OutboxRelay(ctx.pool, jetstream(ctx.broker))
        self.tasks.append(asyncio.create_task(relay.run(), name=f"{ctx.name}-outbox"))
        self.tasks.append(asyncio.create_task(keep_tables_small(ctx.pool), name="housekeeping"))
        for hook in ctx._on_startup:
            await hook()
        self.started = True
        log.info("service.started", service=ctx.name, nats=ctx.settings.nats_url_shown)

    async def stop(self) -> None:
        for hook in reversed(self.ctx._on_shutdown):
            await hook()
        await cancel_and_wait(self.tasks)
        for consumer in self.ctx._batch_consumers:
            await consumer.close()

    def application(self) -> FastStream:
        ctx = self.ctx
        serve_ping(
            ctx.broker,
            ctx.subjects,
            service=ctx.name,
            version=ctx.service.version,
            checks=self.checks,
            replica=ctx.settings.replica,
        )
        register_dlq_relay(ctx.broker, ctx.subjects, inbox_prefix=ctx.inbox_prefix)
        app = FastStream(ctx.broker, lifespan=self.lifespan)
        app.context.set_global(CONTEXT_KEY, ctx)  # tests reach the context of an app
        app.after_startup(self.start)
        app.on_shutdown(self.stop)
        return app
