"""The consumer that turns max-deliveries advisories into dead letters."""

from __future__ import annotations

from typing import Any

from faststream.nats import NatsBroker

from axonal_bus.broker import jetstream
from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.dlq import relay_advisory
from axonal_bus.retry import RetryPolicy
from axonal_events import StreamKind, Subjects

__all__ = ["DLQ_RELAY_DURABLE", "register_dlq_relay"]

DLQ_RELAY_DURABLE = "dlq-relay"


def register_dlq_relay(
    broker: NatsBroker, subjects: Subjects, *, inbox_prefix: str | None = None
) -> Any:
    """Every service registers it; they share one durable, so each advisory is relayed once."""
    spec: ConsumerSpec[bytes] = ConsumerSpec(
        durable=DLQ_RELAY_DURABLE,
        filter_subjects=list(subjects.advisory_subjects()),
        decode=bytes,
        stream=StreamKind.ADVISORIES,
        policy=RetryPolicy(max_deliver=20),
    )

    async def relay(advisory: bytes) -> None:
        await relay_advisory(jetstream(broker), subjects, advisory)

    return subscribe(broker, subjects, spec, relay, inbox_prefix=inbox_prefix)
