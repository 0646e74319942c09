"""The consumer of every event: one delivery per subscription, hook or alert route that
wants it (see :mod:`axonal_notifications.deliveries.routing`).

Events are consumed in batches (see :mod:`axonal_bus.batches`): what a batch calls for is
decided in one transaction and its deliveries inserted in one statement, keyed by (target,
event id), so an event seen again adds nothing. The batch is acknowledged only once that
transaction is committed; if it fails, the batch is retried. Events without a ``project``
go to no target; an event the catalog cannot decode is dead-lettered.
"""

from __future__ import annotations

from collections.abc import Sequence

from axonal_bus.consumer import ConsumerSpec
from axonal_db import transaction
from axonal_events import CATALOG
from axonal_notifications.context import Context
from axonal_notifications.deliveries import store
from axonal_notifications.deliveries.routing import Received, deliveries_for

__all__ = ["decode", "on_events", "register"]


def decode(raw: bytes) -> Received:
    """The event and its bytes as they were on the bus (what receivers get)."""
    return Received(raw, CATALOG.decode(raw))


async def on_events(ctx: Context, batch: Sequence[Received]) -> None:
    """Return once the deliveries ``batch`` calls for are committed; wake the worker when
    there are new ones."""
    async with transaction(ctx.pool) as conn:
        new = await deliveries_for(conn, ctx.subjects, batch)
        count = await store.add(conn, new) if new else 0
    if count:
        ctx.wake_worker()


def register(ctx: Context) -> None:
    spec: ConsumerSpec[Received] = ConsumerSpec(
        durable=f"{ctx.name}-events",
        filter_subjects=[ctx.subjects.events()],
        decode=decode,
        batch_size=256,
        ack_wait=30.0,
        max_ack_pending=4096,
    )
    ctx.consume_batches(spec, on_events)
