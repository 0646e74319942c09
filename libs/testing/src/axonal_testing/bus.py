"""Helpers to run brokers and read streams in tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from faststream.nats import NatsBroker
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy
from nats.js.errors import NotFoundError

from axonal_bus.broker import create_broker
from axonal_bus.settings import BusSettings

__all__ = [
    "drained", "make_broker", "read_stream", "running", "stream_count",
]  # fmt: skip


async def drained(js: JetStreamContext, stream: str, durable: str) -> bool:
    """``durable`` has taken and acknowledged every message it matches so far: nothing is left
    to deliver or redeliver (a test's proof that no late or duplicate effect is coming)."""
    info = await js.consumer_info(stream, durable)
    return not info.num_pending and not info.num_ack_pending


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
