"""Consumer: every event on the bus lands in the audit log, once.

Events are read in batches (see :mod:`axonal_bus.batches`) and each batch's audited events
are inserted in one statement, keyed by event id (an event seen again adds nothing); the
batch is acknowledged once that statement committed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.deletion import Purges, consume_deletions
from axonal_bus.errors import Permanent
from axonal_db import Connection
from axonal_events import CloudEvent
from axonal_events.catalog import ProjectDeleted
from axonal_identity.audit import store
from axonal_identity.context import Context
from axonal_identity.domain.audit import DELETION_RECORDS, NOT_AUDITED, is_audited

__all__ = ["decode_envelope", "on_events", "purge_project", "register"]

AuditedEvent = CloudEvent[dict[str, Any]]


def decode_envelope(raw: bytes) -> AuditedEvent:
    """Any CloudEvents envelope is audited, including types this version does not know."""
    try:
        return AuditedEvent.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a CloudEvents envelope: {exc.errors()[0]['msg']}") from None


async def on_events(ctx: Context, batch: Sequence[AuditedEvent]) -> None:
    audited = [event for event in batch if is_audited(event.type)]
    if audited:
        async with ctx.pool.acquire() as conn:
            await store.record_audits(conn, audited)


async def purge_project(conn: Connection, project: ProjectDeleted) -> int:
    """A deleted project's audited events go, but the records of its deletion."""
    slug = f"{project.owner}/{project.name}"
    return await store.purge_project(conn, slug, project.project_id, DELETION_RECORDS)


def register(ctx: Context) -> None:
    spec = ConsumerSpec(
        durable="identity-audit",
        filter_subjects=[ctx.subjects.events()],
        decode=decode_envelope,
        batch_size=256,
        ack_wait=10.0,  # an insert takes milliseconds; a crashed replica's batch returns soon
        max_ack_pending=4096,
    )
    # never decoded: they are the most frequent events, and none is audited
    ignored = frozenset(ctx.subjects.event(name) for name in NOT_AUDITED)
    ctx.consume_batches(spec, on_events, ignored=ignored)
    consume_deletions(ctx, Purges(project=purge_project))
