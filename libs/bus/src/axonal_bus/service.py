"""The runtime every service shares: settings, database, broker, outbox relay, ping.

A service module describes itself with a :class:`ServiceDefinition` and runs with
``asyncio.run(run_service(definition))``. Start-up order: logging, PostgreSQL pool,
migrations (bus tables + the service's own, under an advisory lock), subscribers, broker,
outbox relay. SIGTERM/SIGINT stop it cleanly: subscribers drain, the relay stops, the pool
closes.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import structlog
from faststream import ContextRepo, FastStream
from faststream.nats import NatsBroker
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.aio import cancel_and_wait
from axonal_bus.batches import BatchConsumer, BatchHandler
from axonal_bus.broker import create_broker, jetstream
from axonal_bus.consumer import ConsumerSpec
from axonal_bus.dlq_relay import register_dlq_relay
from axonal_bus.housekeeping import keep_tables_small
from axonal_bus.log import configure_logging
from axonal_bus.outbox import OutboxRelay
from axonal_bus.ping import serve_ping
from axonal_bus.schema import BUS_MIGRATIONS
from axonal_bus.settings import BusSettings
from axonal_db import MigrationSource, create_pool, migrate
from axonal_events import Subjects

__all__ = ["ServiceContext", "ServiceDefinition", "ServiceSettings", "build_app"]

log = structlog.get_logger(__name__)


class ServiceSettings(BusSettings):
    """``AXONAL_DATABASE_URL`` and ``AXONAL_LOG_LEVEL`` on top of the bus settings."""

    database_url: str = "postgresql://postgres@127.0.0.1:5432/axonal"
    log_level: str = "INFO"
    log_json: bool | None = None


Req = TypeVar("Req", bound=BaseModel)
T = TypeVar("T")


@dataclass
class ServiceContext:
    """What handlers of a running service share; ``pool`` is set once the service starts."""

    name: str
    settings: ServiceSettings
    broker: NatsBroker
    subjects: Subjects
    _pool: asyncpg.Pool | None = None
    batch_consumers: list[BatchConsumer[Any]] = field(default_factory=list)

    @property
    def pool(self) -> asyncpg.Pool:
        if self._pool is None:
            raise RuntimeError(f"{self.name} is not started: no database pool yet")
        return self._pool

    def serve_rpc(
        self, method: str, model: type[Req], handler: Callable[[Req], Awaitable[BaseModel]]
    ) -> None:
        """Answer ``<ns>.rpc.<service>.<method>`` (replicas share the requests)."""
        rpc.serve(
            self.broker,
            self.subjects.rpc(self.name, method),
            queue=self.name,
            request_model=model,
            handler=handler,
        )

    def consume_batches(
        self,
        spec: ConsumerSpec[T],
        handler: BatchHandler[T],
        *,
        ignored: frozenset[str] = frozenset(),
    ) -> None:
        """Consume ``spec``'s durable in batches (:mod:`axonal_bus.batches`) while running;
        messages on ``ignored`` subjects are acknowledged unread."""
        self.batch_consumers.append(BatchConsumer(spec, handler, ignored))


@dataclass(frozen=True)
class ServiceDefinition:
    """A service: its name (= schema, durable prefix, RPC namespace) and how to wire it.

    Args:
        name: ``identity``, ``scheduler``...
        version: reported by ping.
        migrations: folder of the service's ``NNNN_name.sql`` files.
        register: adds the service's subscribers and RPC handlers to the broker.
    """

    name: str
    version: str
    migrations: Path
    register: Callable[[ServiceContext], None]


def build_app(definition: ServiceDefinition, settings: ServiceSettings | None = None) -> FastStream:
    """The FastStream application of a service, ready for ``await app.run()``."""
    settings = settings or ServiceSettings()
    configure_logging(settings.log_level, json=settings.log_json)
    broker = create_broker(settings, service=definition.name)
    ctx = ServiceContext(definition.name, settings, broker, settings.subjects)

    started: list[bool] = []  # set once every subscriber is up: until then, not ready

    async def checks() -> dict[str, str]:
        if not started:
            return {"subscribers": "starting"}
        try:
            await ctx.pool.fetchval("SELECT 1")
        except Exception as exc:  # noqa: BLE001 - reported as a health state
            return {"database": f"error: {exc}"}
        return {"database": "ok"}

    definition.register(ctx)
    serve_ping(
        broker, ctx.subjects, service=definition.name, version=definition.version, checks=checks
    )
    register_dlq_relay(
        broker, ctx.subjects, inbox_prefix=ctx.subjects.inbox_prefix(definition.name)
    )

    @contextlib.asynccontextmanager
    async def lifespan(context: ContextRepo) -> AsyncIterator[None]:
        pool = await create_pool(settings.database_url, schema=definition.name)
        sources = [BUS_MIGRATIONS, MigrationSource(definition.name, definition.migrations)]
        applied = await migrate(pool, schema=definition.name, sources=sources)
        log.info("service.migrated", service=definition.name, applied=len(applied))
        ctx._pool = pool
        context.set_global("service", ctx)
        try:
            yield
        finally:
            await pool.close()

    app = FastStream(broker, lifespan=lifespan)
    tasks: list[asyncio.Task[Any]] = []

    @app.after_startup
    async def start_relay() -> None:
        inbox = ctx.subjects.inbox_prefix(definition.name)
        for consumer in ctx.batch_consumers:
            await consumer.open(jetstream(broker), ctx.subjects, inbox_prefix=inbox)
            tasks.append(asyncio.create_task(consumer.run(), name=consumer.spec.durable))
        relay = OutboxRelay(ctx.pool, jetstream(broker))
        tasks.append(asyncio.create_task(relay.run(), name=f"{definition.name}-outbox"))
        tasks.append(asyncio.create_task(keep_tables_small(ctx.pool), name="housekeeping"))
        started.append(True)
        log.info("service.started", service=definition.name, nats=settings.nats_url)

    @app.on_shutdown
    async def stop_relay() -> None:
        await cancel_and_wait(tasks)
        for consumer in ctx.batch_consumers:
            await consumer.close()

    return app
