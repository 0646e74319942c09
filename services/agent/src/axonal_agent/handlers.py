"""Subscribers: ``ExecuteRun`` work per queue (JetStream) and ``run.stopping`` (core NATS).

A run that does not fit in the free slots is nak'ed with a delay, never failed: it comes back
(here or to another agent of the queue) once slots free up, so the consumer allows unlimited
deliveries. A message that cannot be decoded goes to the DLQ at once.
"""

from __future__ import annotations

import re
from typing import Any, cast

import structlog
from faststream import AckPolicy
from faststream.nats import ConsumerConfig, JStream, NatsMessage, PullSub

from axonal_agent.agent import Agent
from axonal_bus.broker import jetstream
from axonal_bus.dlq import Origin, dead_letter
from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_events import CATALOG, CloudEvent, EventDecodeError, RunStatusChanged, StreamKind
from axonal_events.commands import COMMANDS, ExecuteRun

__all__ = ["durable_for", "register"]

log = structlog.get_logger(__name__)
_NOT_TOKEN = re.compile(r"[^A-Za-z0-9_-]")


def durable_for(queue: str) -> str:
    """``agent-<queue token>``: ``gpu/a100`` -> ``agent-gpu-a100``."""
    return "agent-" + _NOT_TOKEN.sub("-", queue)


def decode_execute(raw: bytes) -> CloudEvent[ExecuteRun]:
    event = COMMANDS.decode(raw)
    if not isinstance(event.data, ExecuteRun):
        raise Permanent(f"{event.type} is not an agent.execute command")
    return cast("CloudEvent[ExecuteRun]", event)


def _register_queue(ctx: ServiceContext, agent: Agent, queue: str) -> None:
    broker, subjects = ctx.broker, ctx.subjects
    durable = durable_for(queue)
    in_flight = max(1, int(agent.settings.cpu))
    subscriber = broker.subscriber(
        subjects.agent_queue(queue),
        stream=JStream(subjects.stream_name(StreamKind.COMMANDS), declare=False),
        durable=durable,
        pull_sub=PullSub(batch_size=1, timeout=5.0),
        config=ConsumerConfig(max_deliver=-1, ack_wait=60.0, max_ack_pending=in_flight),
        ack_policy=AckPolicy.NACK_ON_ERROR,
        inbox_prefix=f"{subjects.inbox_prefix(ctx.name)}.".encode(),
        title=durable,
    )

    async def consume() -> None:
        msg: NatsMessage = broker.context.get_local("message")
        raw = msg.raw_message
        try:
            event = decode_execute(raw.data)
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
            taken = await agent.accept(event, durable)
        except Exception as exc:  # noqa: BLE001 - the database may be back soon
            log.warning("execute.retry", error=str(exc), run_uuid=event.data.run_uuid)
            await msg.nack(delay=agent.settings.slot_retry_seconds * 5)
            return
        if taken:
            await msg.ack()
        else:
            await msg.nack(delay=agent.settings.slot_retry_seconds)

    subscriber(consume)


def register(ctx: ServiceContext, agent: Agent) -> None:
    agent.bind(ctx)
    for queue in agent.settings.queues:
        _register_queue(ctx, agent, queue)

    # A plain observer: JetStream publishers wait for the stream's PubAck on the same reply
    # subject, so this subscriber must never answer (no_reply).
    stopping = ctx.broker.subscriber(
        ctx.subjects.event("run.stopping"), title="agent-stopping", no_reply=True
    )

    async def on_stopping() -> None:
        msg: NatsMessage = ctx.broker.context.get_local("message")
        try:
            event: CloudEvent[Any] = CATALOG.decode(msg.raw_message.data)
        except EventDecodeError as exc:
            log.warning("stopping.undecodable", error=str(exc))
            return
        if isinstance(event.data, RunStatusChanged) and agent.on_stopping(event.data.run_uuid):
            log.info("run.stopping", run_uuid=event.data.run_uuid)

    stopping(on_stopping)
