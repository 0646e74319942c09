"""The api's only door to the platform: RPC reads and JetStream command writes."""

from __future__ import annotations

import contextlib
from typing import Any, TypeVar

import structlog
from nats.aio.client import Client
from nats.errors import TimeoutError as NatsTimeoutError
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.errors import AxonalError
from axonal_bus.outbox import event_headers
from axonal_events import EventData, Rpc, Subjects, new_event
from axonal_events.external import ExternalEvent, message_id, subject_tokens

__all__ = ["CommandNotAcknowledged", "Gateway"]

Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)

SOURCE = "axonal/api"
log = structlog.get_logger(__name__)


class CommandNotAcknowledged(AxonalError):
    """JetStream did not store a command (no ack in time, no stream, a bad reply)."""


class Gateway:
    """Calls services over ``nc`` (core NATS) and publishes commands with a PubAck."""

    def __init__(
        self, nc: Client, subjects: Subjects, *, timeout: float, apply_wait: float = 0.0
    ) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.subjects = subjects
        self.timeout = timeout
        self.apply_wait = apply_wait

    async def call(self, method: Rpc[Req, Res], request: Req) -> Res:
        """Call ``method``; raises the bus's RPC errors."""
        return await rpc.call(self.nc, self.subjects, method, request, timeout=self.timeout)

    async def call_json(self, method: Rpc[Req, Res], request: Req) -> bytes:
        """Call ``method``; its result as the service wrote it (JSON of a ``method.reply``)."""
        return await rpc.call_json(self.nc, self.subjects, method, request, timeout=self.timeout)

    async def ingest(self, kind: str, payload: bytes, msg_id: str) -> None:
        """Publish ``payload`` on ``<ns>.ingest.<kind>``; returns once JetStream stored it."""
        await self._publish(self.subjects.ingest(kind), payload, {"Nats-Msg-Id": msg_id})

    async def external(self, event: ExternalEvent) -> str:
        """Publish an integration's event on ``<ns>.ext.<source>.<type>``; returns the subject."""
        subject = self.subjects.external(*subject_tokens(event))
        await self._publish(subject, event.to_json(), {"Nats-Msg-Id": message_id(event)})
        return subject

    async def emit(self, data: EventData, **extra: Any) -> str:
        """Publish ``data`` as the api's event, wait for JetStream's ack; the envelope id."""
        event = new_event(data, source=SOURCE, **extra)
        subject = self.subjects.event(data.event_type())
        await self._publish(subject, event.to_json(), event_headers(event))
        return str(event.id)

    async def command(
        self, service: str, verb: str, data: EventData, *, applied: bool = False, **extra: Any
    ) -> str:
        """Publish ``data`` as a command, wait for JetStream's ack; return the envelope id.

        ``applied``: then wait (up to ``apply_wait`` seconds) for the service's notice that
        the command is applied, so that the caller's next read sees its effect. Past that
        wait the command is still stored, and applied as soon as the service gets to it.
        """
        event = new_event(data, source=SOURCE, **extra)
        subject, payload, headers = (
            self.subjects.command(service, verb),
            event.to_json(),
            event_headers(event),
        )
        if not (applied and self.apply_wait > 0):
            await self._publish(subject, payload, headers)
            return str(event.id)
        notice = await self.nc.subscribe(self.subjects.applied(event.id), max_msgs=1)
        try:
            await self._publish(subject, payload, headers)
            await notice.next_msg(timeout=self.apply_wait)
        except NatsTimeoutError:
            log.warning("command.not_applied_yet", subject=subject, waited=self.apply_wait)
        finally:
            with contextlib.suppress(Exception):  # already gone once its one message came
                await notice.unsubscribe()
        return str(event.id)

    async def _publish(self, subject: str, payload: bytes, headers: dict[str, str]) -> None:
        try:
            await self.js.publish(subject, payload, headers=headers, timeout=self.timeout)
        except Exception as exc:  # noqa: BLE001 - any failure means: not stored
            reason = str(exc) or type(exc).__name__
            raise CommandNotAcknowledged(f"{subject} was not acknowledged: {reason}") from None
