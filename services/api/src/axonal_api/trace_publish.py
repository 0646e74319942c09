"""Records -> :class:`TraceBatch` messages on ``<ns>.ingest.traces.<project id>``.

A request's records are cut into batches that fit the server's ``max_payload``; each publish
is awaited (the request is answered only once JetStream stored every part). Message ids derive
from the request body, so a client re-sending the same body within the stream's duplicate
window is stored once (and the tracking service's merge makes a later re-send harmless too).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

from axonal_api.gateway import Gateway
from axonal_events.api_keys import KeyProject
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceBatch, TraceRecord

__all__ = ["RecordTooLarge", "publish_records"]

_MARGIN = 64 * 1024
_ENVELOPE = 512


class RecordTooLarge(Exception):
    """One record alone is larger than a message may be."""


Record = TraceRecord | ObservationRecord | ScoreRecord


def _parts(records: Sequence[Record], limit: int) -> list[list[Record]]:
    """``records`` cut into runs whose JSON stays under ``limit`` bytes."""
    parts: list[list[Record]] = [[]]
    used = _ENVELOPE
    for record in records:
        size = len(record.model_dump_json(exclude_none=True)) + 1
        if size + _ENVELOPE > limit:
            raise RecordTooLarge(f"record {record.id} alone is larger than {limit} bytes")
        if used + size > limit and parts[-1]:
            parts.append([])
            used = _ENVELOPE
        parts[-1].append(record)
        used += size
    return parts


def _batches(project: KeyProject, records: Sequence[Record], limit: int) -> list[TraceBatch]:
    now = datetime.now(UTC)
    name = f"{project.owner}/{project.name}"
    return [
        TraceBatch.model_construct(
            project_id=project.id,
            project=name,
            received_at=now,
            traces=[r for r in part if isinstance(r, TraceRecord)],
            observations=[r for r in part if isinstance(r, ObservationRecord)],
            scores=[r for r in part if isinstance(r, ScoreRecord)],
        )
        for part in _parts(records, limit)
        if part
    ]


async def publish_records(
    gw: Gateway,
    project: KeyProject,
    body: bytes,
    *,
    traces: Sequence[TraceRecord] = (),
    observations: Sequence[ObservationRecord] = (),
    scores: Sequence[ScoreRecord] = (),
) -> None:
    """Publish the records; returns once JetStream acknowledged every part."""
    limit = gw.nc.max_payload - _MARGIN
    digest = hashlib.sha256(project.id.encode() + b"\0" + body).hexdigest()[:32]
    records: list[Record] = [*traces, *observations, *scores]
    for index, batch in enumerate(_batches(project, records, limit)):
        payload = batch.model_dump_json(exclude_none=True).encode()
        await gw.ingest(f"traces.{project.id}", payload, f"{digest}:{index}")
