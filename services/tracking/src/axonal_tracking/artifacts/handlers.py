"""Consumer of ``ingest.artifacts.<run>``: artifact records, stored once.

A record that is not a valid :class:`ArtifactRecord` is dead-lettered at once with the
validation error as its reason; a valid one is stored and acknowledged after the write.
Bytes not seen before under the run's artifact name are a new version, announced by
``artifact.version.created`` through the outbox in the same transaction; a redelivery or the
same bytes again add nothing.
"""

from __future__ import annotations

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Permanent
from axonal_bus.outbox import enqueue
from axonal_db import transaction
from axonal_events import CloudEvent, EventData, StreamKind, new_event
from axonal_events.artifacts import ArtifactRecord
from axonal_events.catalog.models import ArtifactVersionCreated
from axonal_tracking.artifacts import store
from axonal_tracking.context import Context

__all__ = ["decode_record", "on_record", "register"]


def decode_record(raw: bytes) -> ArtifactRecord:
    """A valid record; :class:`Permanent` naming the first bad field otherwise."""
    try:
        return ArtifactRecord.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(root)"
        raise Permanent(f"not an artifact record: {where}: {first['msg']}") from None


async def on_record(ctx: Context, record: ArtifactRecord) -> None:
    async with transaction(ctx.pool) as conn:
        if await store.upsert(conn, record):
            await enqueue(conn, ctx.subjects, _version_created(ctx, record))


def _version_created(ctx: Context, record: ArtifactRecord) -> CloudEvent[EventData]:
    data = ArtifactVersionCreated(
        project=record.project,
        run_uuid=record.run_uuid,
        name=record.name,
        kind=record.kind.value,
        step=record.step,
        sha256=record.sha256,
        size=record.size,
        path=record.path,
        is_input=record.is_input,
    )
    return new_event(data, source=ctx.source, project=record.project)


def register(ctx: Context) -> None:
    spec: ConsumerSpec[ArtifactRecord] = ConsumerSpec(
        durable=f"{ctx.name}-artifacts",
        filter_subjects=[ctx.subjects.ingest("artifacts.>")],
        decode=decode_record,
        stream=StreamKind.INGEST,
        ack_wait=30.0,
    )
    ctx.consume(spec, on_record)
