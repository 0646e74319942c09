"""Batched consumers: one fetch of many messages, one handler call for the whole batch.

For consumers whose work is set-based (one query and one insert for many events), the
per-message path of :func:`~axonal_bus.consumer.subscribe` costs more than the work itself.
:class:`BatchConsumer` pulls up to ``spec.batch_size`` messages at once (a fetch returns as
soon as one message is there, with whatever else is ready), dead-letters those that cannot be
decoded, hands the rest to the handler together and acknowledges them once it returns. When
the handler raises, every message of the batch is retried with the policy's delay (or
dead-lettered once exhausted); :class:`~axonal_bus.errors.Permanent` dead-letters the batch;
a dependency that is down is waited for (:mod:`axonal_bus.outage`).
The verdicts are those of :mod:`axonal_bus.consumer`; only the unit of work differs.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Generic, TypeVar

import structlog
from nats.aio.msg import Msg
from nats.errors import TimeoutError as NatsTimeoutError
from nats.js.api import ConsumerConfig
from nats.js.client import JetStreamContext

from axonal_bus.consumer import ConsumerSpec
from axonal_bus.dlq import Origin, dead_letter
from axonal_bus.errors import Permanent
from axonal_bus.outage import retry_while_down
from axonal_events import EventDecodeError, Subjects

__all__ = ["BatchConsumer", "BatchHandler"]

log = structlog.get_logger(__name__)
T = TypeVar("T")
BatchHandler = Callable[[Sequence[T]], Awaitable[None]]
_FETCH_WAIT = 5.0


class BatchConsumer(Generic[T]):
    """``spec``'s durable consumed in batches by ``handler``: :meth:`open`, then :meth:`run`.

    Messages on ``ignored`` subjects are acknowledged without being decoded or handled: a
    consumer of every event can pass over, at almost no cost, the frequent ones it never uses.
    """

    def __init__(
        self, spec: ConsumerSpec[T], handler: BatchHandler[T], ignored: frozenset[str] = frozenset()
    ) -> None:
        self.spec = spec
        self.handler = handler
        self.ignored = ignored
        self._opened: tuple[JetStreamContext.PullSubscription, JetStreamContext, Subjects] | None
        self._opened = None

    async def open(
        self, js: JetStreamContext, subjects: Subjects, *, inbox_prefix: str | None = None
    ) -> None:
        """Create (or bind to) the durable: from now on it keeps every message for us."""
        spec, filters = self.spec, list(self.spec.filter_subjects)
        sub = await js.pull_subscribe(
            filters[0] if len(filters) == 1 else "",
            durable=spec.durable,
            stream=subjects.stream_name(spec.stream),
            config=ConsumerConfig(
                filter_subjects=filters if len(filters) > 1 else None,
                max_deliver=spec.policy.max_deliver,
                ack_wait=spec.ack_wait,
                max_ack_pending=spec.max_ack_pending,
            ),
            inbox_prefix=f"{inbox_prefix}.".encode() if inbox_prefix else None,
        )
        self._opened = (sub, js, subjects)

    async def close(self) -> None:
        """Stop receiving (the durable keeps its place on the server). Call it once :meth:`run`
        has ended: a status message that reached the subscription after the last fetch would
        otherwise hold the connection's drain for its whole timeout."""
        if self._opened is not None:
            sub = self._opened[0]
            self._opened = None
            with contextlib.suppress(Exception):  # a closed connection has nothing to drain
                await sub.unsubscribe()

    async def run(self) -> None:
        """Fetch and handle batches until cancelled."""
        if self._opened is None:
            raise RuntimeError(f"{self.spec.durable}: open() before run()")
        sub, js, subjects = self._opened
        failures = 0
        while True:
            try:
                messages = await sub.fetch(self.spec.batch_size, timeout=_FETCH_WAIT)
            except (TimeoutError, NatsTimeoutError):
                continue
            except Exception as exc:  # noqa: BLE001 - a reconnecting client: try again soon
                failures += 1
                log.warning("batch.fetch_failed", durable=self.spec.durable, error=str(exc))
                await asyncio.sleep(min(5.0, 0.1 * 2**failures))
                continue
            failures = 0
            if self.ignored:
                messages = await _without_ignored(messages, self.ignored)
            await _handle(js, subjects, self.spec, self.handler, messages)


async def _without_ignored(messages: Sequence[Msg], ignored: frozenset[str]) -> list[Msg]:
    kept = []
    for msg in messages:
        if msg.subject in ignored:
            await msg.ack()
        else:
            kept.append(msg)
    return kept


async def _handle(
    js: JetStreamContext,
    subjects: Subjects,
    spec: ConsumerSpec[T],
    handler: BatchHandler[T],
    messages: Sequence[Msg],
) -> None:
    decoded: list[T] = []
    kept: list[Msg] = []
    for msg in messages:
        try:
            decoded.append(spec.decode(msg.data))
            kept.append(msg)
        except (EventDecodeError, Permanent) as exc:
            await _give_up(js, subjects, spec, msg, str(exc), exc)
    if not kept:
        return

    async def still_working() -> None:
        for msg in kept:
            await msg.in_progress()

    try:
        await retry_while_down(lambda: handler(decoded), still_working)
    except Permanent as exc:
        for msg in kept:
            await _give_up(js, subjects, spec, msg, str(exc), exc)
    except Exception as exc:  # noqa: BLE001 - every other failure is worth a retry
        log.warning("batch.retry", durable=spec.durable, size=len(kept), error=str(exc),
                    error_type=type(exc).__name__)  # fmt: skip
        for msg in kept:
            delivered = msg.metadata.num_delivered
            if spec.policy.exhausted(delivered):
                reason = f"{type(exc).__name__}: {exc} (after {delivered} deliveries)"
                await _give_up(js, subjects, spec, msg, reason, exc)
            else:
                await msg.nak(delay=spec.policy.delay(delivered))
    else:
        for msg in kept:  # each only queues a few bytes for the connection's flusher
            await msg.ack()


async def _give_up(
    js: JetStreamContext,
    subjects: Subjects,
    spec: ConsumerSpec[T],
    msg: Msg,
    reason: str,
    error: BaseException,
) -> None:
    """Dead-letter ``msg`` and terminate it; if the DLQ cannot take it, retry it later."""
    meta = msg.metadata
    try:
        await dead_letter(
            js,
            subjects,
            consumer=spec.durable,
            origin=Origin(msg.subject, meta.stream, meta.sequence.stream),
            payload=msg.data,
            headers=msg.headers,
            deliveries=meta.num_delivered,
            reason=reason,
            error=type(error).__name__,
        )
    except Exception as exc:  # noqa: BLE001 - keep the message until the DLQ takes it
        log.error("message.dead_letter_failed", error=str(exc), reason=reason)
        await msg.nak(delay=spec.policy.delay(meta.num_delivered))
    else:
        await msg.term()
