"""The agent's two subscriptions, wired by hand: neither fits the context's ``consume``.

* :func:`consume_queue`, the ``ExecuteRun`` work of one queue: a pull consumer on the durable
  ``agent-<queue>`` whose verdicts are the agent's own. A run that does not fit the free
  slots is not a failure: it is nak'ed with ``slot_retry_seconds`` (the same delay every
  time) and offered again, here or to another agent of the queue, as often as it takes
  (``max_deliver=-1``). A database error naks it with five times that delay. A message that
  cannot be decoded is dead-lettered at once. :func:`axonal_bus.consumer.subscribe` retries
  with a growing delay and dead-letters after ``RetryPolicy.max_deliver`` deliveries (at
  least one), which would dead-letter a run that waited long for slots.
* :func:`observe`, a core NATS subscription with no durable: every agent sees every
  ``run.stopping`` event (a durable shared by the agents would hand each event to one).
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any

import structlog
from faststream import AckPolicy
from faststream.nats import ConsumerConfig, JStream, NatsMessage, PullSub

from axonal_agent.context import Context
from axonal_bus.broker import jetstream
from axonal_bus.dlq import Origin, dead_letter
from axonal_bus.errors import Permanent
from axonal_events import CATALOG, CloudEvent, EventDecodeError, StreamKind
from axonal_events.commands import ExecuteRun

__all__ = ["Offer", "consume_queue", "durable_for", "observe"]

log = structlog.get_logger(__name__)
#: ``handler(ctx, command, durable)``: ``True`` takes the command (ack), ``False`` offers it
#: again after ``slot_retry_seconds``; raising offers it again after five times that.
Offer = Callable[[Context, CloudEvent[ExecuteRun], str], Awaitable[bool]]
_NOT_TOKEN = re.compile(r"[^A-Za-z0-9_-]")
_ERROR_DELAY_FACTOR = 5


def durable_for(queue: str) -> str:
    """``agent-<queue token>``: ``gpu/a100`` -> ``agent-gpu-a100``."""
    return "agent-" + _NOT_TOKEN.sub("-", queue)


def consume_queue(
    ctx: Context,
    queue: str,
    decode: Callable[[bytes], CloudEvent[ExecuteRun]],
    handler: Offer,
) -> None:
    """Offer the commands of ``queue`` to ``handler``, one at a time, at most one per core
    in flight (see the module docstring for the verdicts)."""
    broker, subjects, settings = ctx.broker, ctx.subjects, ctx.settings
    durable = durable_for(queue)
    subscriber = broker.subscriber(
        subjects.agent_queue(queue),
        stream=JStream(subjects.stream_name(StreamKind.COMMANDS), declare=False),
        durable=durable,
        pull_sub=PullSub(batch_size=1, timeout=5.0),
        config=ConsumerConfig(
            max_deliver=-1, ack_wait=60.0, max_ack_pending=max(1, int(settings.cpu))
        ),
        ack_policy=AckPolicy.NACK_ON_ERROR,
        inbox_prefix=f"{ctx.inbox_prefix}.".encode(),
        title=durable,
    )

    # No injected parameters, the message is read from the context (see axonal_bus.consumer).
    async def consume() -> None:
        msg: NatsMessage = broker.context.get_local("message")
        raw = msg.raw_message
        try:
            event = decode(raw.data)
        except (EventDecodeError, Permanent) as exc:
            meta = raw.metadata
            await dead_letter(
                jetstream(broker),
                subjects,
                consumer=durable,
                origin=Origin(raw.subject, meta.stream, meta.sequence.stream),
                payload=raw.data,
                headers=raw.headers,
                deliveries=meta.num_delivered,
                reason=str(exc),
                error=type(exc).__name__,
            )
            await msg.reject()
            return
        try:
            taken = await handler(ctx, event, durable)
        except Exception as exc:  # noqa: BLE001 - the database may be back soon
            log.warning("execute.retry", error=str(exc), run_uuid=event.data.run_uuid)
            await msg.nack(delay=settings.slot_retry_seconds * _ERROR_DELAY_FACTOR)
            return
        if taken:
            await msg.ack()
        else:
            await msg.nack(delay=settings.slot_retry_seconds)

    subscriber(consume)


def observe(
    ctx: Context,
    event_type: str,
    handler: Callable[[Context, CloudEvent[Any]], Awaitable[None]],
    *,
    title: str,
) -> None:
    """Call ``handler`` for every ``event_type`` event this process sees (core NATS, no
    durable, no redelivery); an undecodable event is logged and skipped."""
    broker = ctx.broker
    # JetStream publishers wait for the stream's PubAck on the same reply subject, so this
    # subscriber must never answer (no_reply).
    subscriber = broker.subscriber(ctx.subjects.event(event_type), title=title, no_reply=True)

    async def observed() -> None:
        msg: NatsMessage = broker.context.get_local("message")
        try:
            event: CloudEvent[Any] = CATALOG.decode(msg.raw_message.data)
        except EventDecodeError as exc:
            log.warning("observer.undecodable", event_type=event_type, error=str(exc))
            return
        await handler(ctx, event)

    subscriber(observed)
