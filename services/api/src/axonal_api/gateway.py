"""The api's only door to the platform: RPC reads and JetStream command writes."""

from __future__ import annotations

from typing import Any, TypeVar

from nats.aio.client import Client
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


class CommandNotAcknowledged(AxonalError):
    """JetStream did not store a command (no ack in time, no stream, a bad reply)."""


class Gateway:
    """Calls services over ``nc`` (core NATS) and publishes commands with a PubAck."""

    def __init__(self, nc: Client, subjects: Subjects, *, timeout: float) -> None:
        self.nc = nc
        self.js = nc.jetstream()
        self.subjects = subjects
        self.timeout = timeout

    async def call(self, method: Rpc[Req, Res], request: Req) -> Res:
        """Call ``method``; raises the bus's RPC errors."""
        return await rpc.call(self.nc, self.subjects, method, request, timeout=self.timeout)

    async def ingest(self, kind: str, payload: bytes, msg_id: str) -> None:
        """Publish ``payload`` on ``<ns>.ingest.<kind>``; returns once JetStream stored it."""
        await self._publish(self.subjects.ingest(kind), payload, {"Nats-Msg-Id": msg_id})

    async def external(self, event: ExternalEvent) -> str:
        """Publish an integration's event on ``<ns>.ext.<source>.<type>``; returns the subject."""
        subject = self.subjects.external(*subject_tokens(event))
        await self._publish(subject, event.to_json(), {"Nats-Msg-Id": message_id(event)})
        return subject

    async def command(self, service: str, verb: str, data: EventData, **extra: Any) -> str:
        """Publish ``data`` as a command, wait for JetStream's ack; return the envelope id."""
        event = new_event(data, source=SOURCE, **extra)
        subject = self.subjects.command(service, verb)
        await self._publish(subject, event.to_json(), event_headers(event))
        return str(event.id)

    async def _publish(self, subject: str, payload: bytes, headers: dict[str, str]) -> None:
        try:
            await self.js.publish(subject, payload, headers=headers, timeout=self.timeout)
        except Exception as exc:  # noqa: BLE001 - any failure means: not stored
            reason = str(exc) or type(exc).__name__
            raise CommandNotAcknowledged(f"{subject} was not acknowledged: {reason}") from None
