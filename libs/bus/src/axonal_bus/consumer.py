"""Durable JetStream consumers with explicit verdicts: ack, retry later, or dead-letter.

Every consumer is a pull consumer on a durable shared by all replicas of its service, so
replicas split the work and each durable sees every message. A handler returns normally
(ack), raises :class:`~axonal_bus.errors.Retryable` or any unexpected error (nak with a
growing delay; dead-lettered once the policy is exhausted) or raises
:class:`~axonal_bus.errors.Permanent` (dead-lettered at once). A message that cannot be
decoded is dead-lettered at once and the consumer goes on with the next one. A handler that
fails because a dependency is down is tried again in place until it is back, without
spending the message's deliveries (:mod:`axonal_bus.outage`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import structlog
from faststream import AckPolicy
from faststream.message import StreamMessage
from faststream.nats import ConsumerConfig, JStream, NatsBroker, NatsMessage, PullSub

from axonal_bus.broker import jetstream
from axonal_bus.dlq import Origin, dead_letter
from axonal_bus.errors import Permanent
from axonal_bus.outage import retry_while_down
from axonal_bus.retry import RetryPolicy
from axonal_events import CATALOG, CloudEvent, EventData, EventDecodeError, StreamKind, Subjects

__all__ = ["ConsumerSpec", "Handler", "subscribe", "subscribe_events"]

log = structlog.get_logger(__name__)
T = TypeVar("T")
Handler = Callable[[T], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class ConsumerSpec(Generic[T]):
    """A durable consumer: what it reads, how it decodes, how it retries.

    Args:
        durable: the durable name, shared by every replica of the consuming service.
        filter_subjects: subjects it reads (built with :class:`~axonal_events.Subjects`).
        stream: the stream they live in.
        decode: bytes -> message; raising :class:`~axonal_events.EventDecodeError` or
            :class:`~axonal_bus.errors.Permanent` dead-letters the message at once.
        batch_size: messages fetched per pull request.
        ack_wait: seconds before an unacknowledged delivery is redelivered.
        max_ack_pending: deliveries in flight across all replicas (back-pressure).
        workers: messages one replica handles at once (in order when 1): more overlap the
            handler's own work with its waits on a database, for handlers that are safe to
            run side by side.
    """

    durable: str
    filter_subjects: Sequence[str]
    decode: Callable[[bytes], T]
    stream: StreamKind = StreamKind.EVENTS
    policy: RetryPolicy = field(default_factory=RetryPolicy)
    batch_size: int = 16
    ack_wait: float = 60.0
    max_ack_pending: int = 1000
    workers: int = 1


def subscribe(
    broker: NatsBroker,
    subjects: Subjects,
    spec: ConsumerSpec[T],
    handler: Handler[T],
    *,
    inbox_prefix: str | None = None,
) -> Any:
    """Register ``handler`` behind ``spec`` on ``broker``; returns the subscriber."""
    filters = list(spec.filter_subjects)
    subscriber = broker.subscriber(
        filters[0] if len(filters) == 1 else "",
        stream=JStream(subjects.stream_name(spec.stream), declare=False),
        durable=spec.durable,
        pull_sub=PullSub(batch_size=spec.batch_size, timeout=5.0),
        config=ConsumerConfig(
            filter_subjects=filters if len(filters) > 1 else None,
            max_deliver=spec.policy.max_deliver,
            ack_wait=spec.ack_wait,
            max_ack_pending=spec.max_ack_pending,
        ),
        ack_policy=AckPolicy.NACK_ON_ERROR,
        decoder=_undecoded,
        inbox_prefix=f"{inbox_prefix or '_INBOX'}.".encode(),
        title=spec.durable,
        max_workers=spec.workers,
    )

    # No injected parameters: FastDepends resolves each one through a worker thread, which
    # costs more than everything else per message. The message is read from the context
    # (looked up per call: an application wrapping the broker replaces its context).
    async def consume() -> None:
        msg: NatsMessage = broker.context.get_local("message")
        raw = msg.raw_message
        meta = raw.metadata
        delivered = meta.num_delivered

        async def give_up(reason: str, error: BaseException) -> None:
            try:
                await dead_letter(
                    jetstream(broker),
                    subjects,
                    consumer=spec.durable,
                    origin=Origin(raw.subject, meta.stream, meta.sequence.stream),
                    payload=raw.data,
                    headers=raw.headers,
                    deliveries=delivered,
                    reason=reason,
                    error=type(error).__name__,
                )
            except Exception as exc:  # noqa: BLE001 - keep the message until the DLQ takes it
                log.error("message.dead_letter_failed", error=str(exc), reason=reason)
                await msg.nack(delay=spec.policy.delay(delivered))
            else:
                await msg.reject()

        try:
            message = spec.decode(raw.data)
            await retry_while_down(lambda: handler(message), msg.in_progress)
        except (EventDecodeError, Permanent) as exc:
            await give_up(str(exc), exc)
        except Exception as exc:  # noqa: BLE001 - every other failure is worth a retry
            if spec.policy.exhausted(delivered):
                await give_up(f"{type(exc).__name__}: {exc} (after {delivered} deliveries)", exc)
                return
            delay = spec.policy.delay(delivered)
            log.warning("message.retry", error=str(exc), error_type=type(exc).__name__, delay=delay)
            await msg.nack(delay=delay)
        else:
            await msg.ack()

    subscriber(consume)
    return subscriber


async def _undecoded(message: StreamMessage[Any]) -> Any:
    """The body as it came: ``spec.decode`` reads it (FastStream would parse JSON first)."""
    return message.body


def subscribe_events(
    broker: NatsBroker,
    subjects: Subjects,
    *,
    durable: str,
    event_types: Sequence[str],
    handler: Handler[CloudEvent[EventData]],
    policy: RetryPolicy | None = None,
    inbox_prefix: str | None = None,
    **options: Any,
) -> Any:
    """Consume events of ``event_types`` (``run.done``, ``run.*`` ...) decoded by the catalog."""
    spec: ConsumerSpec[CloudEvent[EventData]] = ConsumerSpec(
        durable=durable,
        filter_subjects=[subjects.event(t) for t in event_types],
        decode=CATALOG.decode,
        policy=policy or RetryPolicy(),
        **options,
    )
    return subscribe(broker, subjects, spec, handler, inbox_prefix=inbox_prefix)
