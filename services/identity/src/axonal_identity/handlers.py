"""Subscribers: every event on the bus lands in the audit log, once."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import transaction
from axonal_events import CloudEvent
from axonal_identity import store
from axonal_identity.domain.audit import is_audited

__all__ = ["decode_envelope", "register"]

AuditedEvent = CloudEvent[dict[str, Any]]


def decode_envelope(raw: bytes) -> AuditedEvent:
    """Any CloudEvents envelope is audited, including types this version does not know."""
    try:
        return AuditedEvent.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a CloudEvents envelope: {exc.errors()[0]['msg']}") from None


def register(ctx: ServiceContext) -> None:
    async def on_event(event: AuditedEvent) -> None:
        if not is_audited(event.type):
            return
        async with transaction(ctx.pool) as conn:
            await store.record_audit(conn, event)

    spec = ConsumerSpec(
        durable="identity-audit",
        filter_subjects=[ctx.subjects.events()],
        decode=decode_envelope,
        batch_size=64,
        ack_wait=10.0,  # an insert takes milliseconds; a crashed replica's batch returns soon
    )
    subscribe(
        ctx.broker, ctx.subjects, spec, on_event, inbox_prefix=ctx.subjects.inbox_prefix(ctx.name)
    )
