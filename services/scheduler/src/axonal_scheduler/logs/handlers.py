"""Consumer: agents' log batches (``ingest.logs.<run>``), stored once per (run, attempt, seq)."""

from __future__ import annotations

from pydantic import ValidationError

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.errors import Permanent
from axonal_db import transaction
from axonal_events import StreamKind
from axonal_events.logs import LogBatch
from axonal_scheduler.context import Context
from axonal_scheduler.logs import store

__all__ = ["decode_batch", "on_logs", "register"]


def decode_batch(raw: bytes) -> LogBatch:
    try:
        return LogBatch.model_validate_json(raw)
    except ValidationError as exc:
        raise Permanent(f"not a log batch: {exc.errors()[0]['msg']}") from None


async def on_logs(ctx: Context, batch: LogBatch) -> None:
    async with transaction(ctx.pool) as conn:
        await store.insert_logs(conn, batch)


def register(ctx: Context) -> None:
    spec = ConsumerSpec(
        durable=f"{ctx.name}-logs",
        filter_subjects=[ctx.subjects.ingest("logs.>")],
        decode=decode_batch,
        stream=StreamKind.INGEST,
        batch_size=64,
        ack_wait=10.0,
    )
    ctx.consume(spec, on_logs)
