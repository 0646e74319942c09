"""Artifact records: the consumer of ``ingest.artifacts.<run>`` and the queries on them.

A record that is not a valid :class:`ArtifactRecord` is dead-lettered at once with the
validation error as its reason; a valid one is upserted (a redelivery or a re-upload changes
nothing or replaces the row) and acknowledged after the write.
"""

from __future__ import annotations

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec, subscribe
from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events import StreamKind
from axonal_events.artifacts import (
    ArtifactList,
    ArtifactRecord,
    Lineage,
    ListArtifacts,
    ReadLineage,
)
from axonal_tracking import artifacts_store

__all__ = ["decode_record", "register"]


def decode_record(raw: bytes) -> ArtifactRecord:
    """A valid record; :class:`Permanent` naming the first bad field otherwise."""
    try:
        return ArtifactRecord.model_validate_json(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(root)"
        raise Permanent(f"not an artifact record: {where}: {first['msg']}") from None


def register(ctx: ServiceContext) -> None:
    async def on_record(record: ArtifactRecord) -> None:
        async with ctx.pool.acquire() as conn:
            await artifacts_store.upsert(conn, record)

    spec: ConsumerSpec[ArtifactRecord] = ConsumerSpec(
        durable=f"{ctx.name}-artifacts",
        filter_subjects=[ctx.subjects.ingest("artifacts.>")],
        decode=decode_record,
        stream=StreamKind.INGEST,
        ack_wait=30.0,
    )
    subscribe(
        ctx.broker, ctx.subjects, spec, on_record, inbox_prefix=ctx.subjects.inbox_prefix(ctx.name)
    )

    async def list_artifacts(request: ListArtifacts) -> ArtifactList:
        async with ctx.pool.acquire() as conn:
            return ArtifactList(artifacts=await artifacts_store.list_for(conn, request.run_uuid))

    async def lineage(request: ReadLineage) -> Lineage:
        async with ctx.pool.acquire() as conn:
            return await artifacts_store.lineage(conn, request.run_uuid)

    ctx.serve_rpc("list_artifacts", ListArtifacts, list_artifacts)
    ctx.serve_rpc("lineage", ReadLineage, lineage)
