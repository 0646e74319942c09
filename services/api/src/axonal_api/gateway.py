"""The api's only door to the platform: RPC reads and JetStream command writes."""

from __future__ import annotations

from typing import Any, TypeVar

from nats.aio.client import Client
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.errors import AxonalError
from axonal_bus.outbox import event_headers
from axonal_events import EventData, Subjects, new_event

__all__ = ["CommandNotAcknowledged", "Gateway"]

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

    async def call(self, service: str, method: str, payload: BaseModel, reply: type[Res]) -> Res:
        """``<ns>.rpc.<service>.<method>``; raises the bus's RPC errors."""
        subject = self.subjects.rpc(service, method)
        return await rpc.request(self.nc, subject, payload, reply, timeout=self.timeout)

    async def ingest(self, kind: str, payload: bytes, msg_id: str) -> None:
        """Publish ``payload`` on ``<ns>.ingest.<kind>``; returns once JetStream stored it."""
        subject = self.subjects.ingest(kind)
        try:
            await self.js.publish(
                subject, payload, headers={"Nats-Msg-Id": msg_id}, timeout=self.timeout
            )
        except Exception as exc:  # noqa: BLE001 - any failure means: not stored
            reason = str(exc) or type(exc).__name__
            raise CommandNotAcknowledged(f"{subject} was not acknowledged: {reason}") from None

    async def command(self, service: str, verb: str, data: EventData, **extra: Any) -> str:
        """Publish ``data`` as a command, wait for JetStream's ack; return the envelope id."""
        event = new_event(data, source=SOURCE, **extra)
        subject = self.subjects.command(service, verb)
        try:
            await self.js.publish(
                subject, event.to_json(), headers=event_headers(event), timeout=self.timeout
            )
        except Exception as exc:  # noqa: BLE001 - any failure means: not stored
            reason = str(exc) or type(exc).__name__
            raise CommandNotAcknowledged(f"{subject} was not acknowledged: {reason}") from None
        return str(event.id)
