"""Helpers to run brokers and read streams in tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import asyncpg
from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from axonal_bus.broker import create_broker
from axonal_bus.settings import BusSettings
from axonal_db import connect, quote_schema

__all__ = [
    "drained", "forget_earlier_outbox", "make_broker", "read_stream", "running", "stream_count",
]  # fmt: skip


async def drained(js: JetStreamContext, stream: str, durable: str) -> bool:
    """``durable`` has taken and acknowledged every message it matches so far: nothing is left
    to deliver or redeliver (a test's proof that no late or duplicate effect is coming)."""
    info = await js.consumer_info(stream, durable)
    return not info.num_pending and not info.num_ack_pending


async def forget_earlier_outbox(database_url: str, schema: str) -> None:
    """Mark as published what earlier tests left unpublished in ``schema``'s outbox: the tests
    of a module share its database, each in its own namespace, and the streams of an earlier
    namespace are gone, so this test's relay would retry those rows ahead of its own."""
    conn = await connect(database_url)
    try:
        outbox = f"{quote_schema(schema)}.outbox"  # a checked identifier
        await conn.execute(f"UPDATE {outbox} SET published_at = now() WHERE published_at IS NULL")  # noqa: S608
    except asyncpg.UndefinedTableError:  # the module's first test: no outbox yet
        pass
    finally:
        await conn.close()


def make_broker(settings: BusSettings, service: str = "tests") -> NatsBroker:
    """A broker configured exactly as services configure theirs."""
    return create_broker(settings, service=service)


@asynccontextmanager
async def running(*brokers: NatsBroker) -> AsyncIterator[None]:
    """Start ``brokers`` (after their subscribers are registered) and stop them after."""
    started: list[NatsBroker] = []
    try:
        for broker in brokers:
            await broker.start()
            started.append(broker)
            await broker.connection.flush()  # the server has every subscription before we go on
        yield
    finally:
        for broker in reversed(started):
            await broker.stop()


async def stream_count(js: JetStreamContext, stream: str) -> int:
    """Messages stored in ``stream`` now."""
    try:
        info = await js.stream_info(stream)
    except NotFoundError:
        return 0
    return int(info.state.messages)


async def read_stream(
    js: JetStreamContext, stream: str, subject: str = ">"
) -> list[tuple[str, bytes, dict[str, str]]]:
    """Every message of ``stream`` matching ``subject``: (subject, data, headers)."""
    sub = await js.pull_subscribe(
        subject,
        stream=stream,
        config=ConsumerConfig(deliver_policy=DeliverPolicy.ALL, inactive_threshold=30.0),
    )
    out: list[tuple[str, bytes, dict[str, str]]] = []
    try:
        pending = (await sub.consumer_info()).num_pending or 0
        while len(out) < pending:
            for msg in await sub.fetch(min(256, pending - len(out)), timeout=2):
                out.append((msg.subject, msg.data, dict(msg.headers or {})))
                await msg.ack()
    finally:
        await sub.unsubscribe()
    return out
