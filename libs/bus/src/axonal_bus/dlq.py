"""Dead letters: copy a message the platform gave up on to ``<ns>.dlq.<consumer>``.

The copy keeps the original body and headers and adds the reason, the delivery count and
where it came from. Its ``Nats-Msg-Id`` is derived from the origin, so a message dead-lettered
twice (by its consumer and by the max-deliveries advisory relay) is stored once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime

import structlog
from nats.js import JetStreamContext
from nats.js.errors import NotFoundError

from axonal_events import StreamKind, Subjects

__all__ = ["DLQ_HEADERS", "Origin", "dead_letter", "relay_advisory"]

log = structlog.get_logger(__name__)


class DLQ_HEADERS:  # noqa: N801 - a namespace of header names
    CONSUMER = "Axonal-Dlq-Consumer"
    REASON = "Axonal-Dlq-Reason"
    ERROR = "Axonal-Dlq-Error"
    SUBJECT = "Axonal-Dlq-Subject"
    STREAM = "Axonal-Dlq-Stream"
    STREAM_SEQ = "Axonal-Dlq-Stream-Seq"
    DELIVERIES = "Axonal-Dlq-Deliveries"
    MSG_ID = "Axonal-Dlq-Msg-Id"
    AT = "Axonal-Dlq-At"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a dead message was stored before it died."""

    subject: str
    stream: str
    stream_seq: int


async def dead_letter(
    js: JetStreamContext,
    subjects: Subjects,
    *,
    consumer: str,
    origin: Origin,
    payload: bytes,
    headers: dict[str, str] | None,
    deliveries: int,
    reason: str,
    error: str = "",
) -> None:
    """Store the dead message in the DLQ stream (waits for the stream's ack)."""
    copied = {k: v for k, v in (headers or {}).items() if k != "Nats-Msg-Id"}
    copied.update(
        {
            "Nats-Msg-Id": f"dlq:{origin.stream}:{origin.stream_seq}:{consumer}",
            DLQ_HEADERS.CONSUMER: consumer,
            DLQ_HEADERS.REASON: reason[:4000],
            DLQ_HEADERS.ERROR: error,
            DLQ_HEADERS.SUBJECT: origin.subject,
            DLQ_HEADERS.STREAM: origin.stream,
            DLQ_HEADERS.STREAM_SEQ: str(origin.stream_seq),
            DLQ_HEADERS.DELIVERIES: str(deliveries),
            DLQ_HEADERS.AT: datetime.now(UTC).isoformat(),
        }
    )
    if headers and "Nats-Msg-Id" in headers:
        copied[DLQ_HEADERS.MSG_ID] = headers["Nats-Msg-Id"]
    await js.publish(
        subjects.dlq(consumer),
        payload,
        stream=subjects.stream_name(StreamKind.DLQ),
        headers=copied,
    )
    log.warning(
        "message.dead_lettered",
        consumer=consumer,
        reason=reason,
        origin_subject=origin.subject,
        stream_seq=origin.stream_seq,
        deliveries=deliveries,
    )


async def relay_advisory(js: JetStreamContext, subjects: Subjects, advisory: bytes) -> None:
    """Dead-letter the message a max-deliveries advisory points at.

    Such a message was delivered ``max_deliver`` times without a verdict from its consumer
    (it crashed or timed out each time), so nobody dead-lettered it yet.
    """
    doc = json.loads(advisory)
    stream, consumer, seq = doc["stream"], doc["consumer"], int(doc["stream_seq"])
    try:
        stored = await js.get_msg(stream, seq)
        payload, headers, subject = stored.data or b"", stored.headers, stored.subject or ""
    except NotFoundError:
        payload, headers, subject = b"", None, ""
    await dead_letter(
        js,
        subjects,
        consumer=consumer,
        origin=Origin(subject, stream, seq),
        payload=payload,
        headers=headers,
        deliveries=int(doc.get("deliveries", 0)),
        reason=f"not acknowledged after {doc.get('deliveries')} deliveries"
        + ("" if payload else " (message no longer in the stream)"),
        error="MaxDeliveries",
    )
