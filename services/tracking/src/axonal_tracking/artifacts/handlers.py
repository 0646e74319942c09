"""Consumer of ``ingest.artifacts.<run>``: artifact records, stored once.

A record that is not a valid :class:`ArtifactRecord` is dead-lettered at once with the
validation error as its reason; a valid one is upserted (a redelivery or a re-upload changes
nothing or replaces the row) and acknowledged after the write.
"""

from __future__ import annotations

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Permanent
from axonal_events import StreamKind
from axonal_events.artifacts import ArtifactRecord
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
    async with ctx.pool.acquire() as conn:
        await store.upsert(conn, record)


def register(ctx: Context) -> None:
    spec: ConsumerSpec[ArtifactRecord] = ConsumerSpec(
        durable=f"{ctx.name}-artifacts",
        filter_subjects=[ctx.subjects.ingest("artifacts.>")],
        decode=decode_record,
        stream=StreamKind.INGEST,
        ack_wait=30.0,
    )
    ctx.consume(spec, on_record)
