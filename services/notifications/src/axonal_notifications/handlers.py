"""The consumer of every event: one delivery per subscription, hook or alert route that
wants it (see :mod:`axonal_notifications.routing`).

Events without a ``project`` go to no target. Deliveries are keyed by (target, event id), so
a redelivered event adds nothing. Events are consumed in batches, each acknowledged once its
deliveries are committed (see :mod:`axonal_notifications.intake`); an event the catalog
cannot decode is dead-lettered (see :mod:`axonal_bus.batches`).
"""

from __future__ import annotations

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.service import ServiceContext
from axonal_events import CATALOG
from axonal_notifications.intake import Intake, Received

__all__ = ["register"]


def _decode(raw: bytes) -> Received:
    return Received(raw, CATALOG.decode(raw))


def register(ctx: ServiceContext, intake: Intake) -> None:
    """Consume every event of the namespace into ``intake``."""
    spec: ConsumerSpec[Received] = ConsumerSpec(
        durable=f"{ctx.name}-events",
        filter_subjects=[ctx.subjects.events()],
        decode=_decode,
        batch_size=256,
        ack_wait=30.0,
        max_ack_pending=4096,
    )
    ctx.consume_batches(spec, intake.store)
