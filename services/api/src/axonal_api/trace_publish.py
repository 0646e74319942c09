"""Records -> :class:`TraceBatch` messages on ``<ns>.ingest.traces.<project id>``.

A request's records are cut into batches that fit the server's ``max_payload``; each publish
is awaited (the request is answered only once JetStream stored every part). Records built as
:mod:`axonal_traces.wire` structs (the OTLP path) are encoded with msgspec and their batch is
checked against the contract before it leaves (:class:`RecordRefused` names the field).

Message ids derive from the request body, so a client re-sending the same body within the
stream's duplicate window is stored once (and the tracking service's merge makes a later
re-send harmless too).
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from datetime import UTC, datetime

import msgspec

from axonal_api.gateway import Gateway
from axonal_events.api_keys import KeyProject
from axonal_events.traces import ObservationRecord, ScoreRecord, TraceRecord
from axonal_traces import wire

__all__ = ["RecordRefused", "RecordTooLarge", "publish_records"]

_MARGIN = 64 * 1024
_ENVELOPE = 512
_LISTS = ("traces", "observations", "scores")


class RecordTooLarge(Exception):
    """One record alone is larger than a message may be."""


class RecordRefused(Exception):
    """A record built from what a client sent breaks the contract (why, naming the field)."""


Record = TraceRecord | ObservationRecord | ScoreRecord | wire.TraceWire | wire.ObservationWire
_KIND = {
    TraceRecord: "traces",
    wire.TraceWire: "traces",
    ObservationRecord: "observations",
    wire.ObservationWire: "observations",
    ScoreRecord: "scores",
}


def _json(record: Record) -> bytes:
    if isinstance(record, msgspec.Struct):
        return wire.encode(record)
    return record.__pydantic_serializer__.to_json(record, exclude_none=True)


def _parts(records: Sequence[Record], limit: int) -> list[list[tuple[Record, bytes]]]:
    """``records`` with their JSON, cut into runs whose JSON stays under ``limit`` bytes."""
    parts: list[list[tuple[Record, bytes]]] = [[]]
    used = _ENVELOPE
    for record in records:
        encoded = _json(record)
        size = len(encoded) + 1
        if size + _ENVELOPE > limit:
            raise RecordTooLarge(f"record {record.id} alone is larger than {limit} bytes")
        if used + size > limit and parts[-1]:
            parts.append([])
            used = _ENVELOPE
        parts[-1].append((record, encoded))
        used += size
    return parts


def _batches(project: KeyProject, records: Sequence[Record], limit: int) -> list[bytes]:
    """The :class:`TraceBatch` messages (JSON) carrying ``records``; each record is
    serialized once, its JSON placed in its message as it is."""
    empty = wire.BatchWire(
        project_id=project.id,
        project=f"{project.owner}/{project.name}",
        received_at=datetime.now(UTC),
    )
    header = wire.encode(empty)[:-1]  # its lists are left out: they are empty
    unchecked = any(isinstance(record, msgspec.Struct) for record in records)
    messages = []
    for part in _parts(records, limit):
        if not part:
            continue
        lists: dict[str, list[bytes]] = {name: [] for name in _LISTS}
        for record, encoded in part:
            lists[_KIND[type(record)]].append(encoded)
        body = b",".join(b'"%s":[%s]' % (name.encode(), b",".join(lists[name])) for name in _LISTS)
        messages.append(header + b"," + body + b"}")
        if unchecked:
            _check(messages[-1])
    return messages


def _check(message: bytes) -> None:
    try:
        wire.check(message)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise RecordRefused(f"a record breaks the contract: {exc}") from None


async def publish_records(
    gw: Gateway,
    project: KeyProject,
    body: bytes,
    *,
    traces: Sequence[TraceRecord | wire.TraceWire] = (),
    observations: Sequence[ObservationRecord | wire.ObservationWire] = (),
    scores: Sequence[ScoreRecord] = (),
) -> None:
    """Publish the records; returns once JetStream acknowledged every part."""
    limit = gw.nc.max_payload - _MARGIN
    digest = hashlib.sha256(project.id.encode() + b"\0" + body).hexdigest()[:32]
    records: list[Record] = [*traces, *observations, *scores]
    for index, payload in enumerate(_batches(project, records, limit)):
        await gw.ingest(f"traces.{project.id}", payload, f"{digest}:{index}")
