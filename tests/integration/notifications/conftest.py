"""The notifications service in-process on the test's NATS namespace and database, and real
receivers: an HTTP server and an SMTP server."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import pytest_asyncio
import uvicorn
from aiosmtpd.smtp import SMTP, Envelope
from pydantic import BaseModel

from axonal_bus import rpc
from axonal_bus.outbox import event_headers
from axonal_events import CloudEvent, EventData, Rpc, StreamKind
from axonal_events.rpcs import Notifications
from axonal_events.webhooks import DeliveryInfo, ListDeliveries, WebhookInfo
from axonal_notifications.app import build_app
from axonal_notifications.settings import NotificationSettings
from axonal_testing.bus import drained
from axonal_testing.waiting import wait_for

Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)

#: Fast retries and a short timeout, loopback receivers allowed (explicitly, as in tests only).
FAST = {
    "retry_schedule": [0.05, 0.1, 0.1],
    "attempt_timeout": 0.5,
    "breaker_threshold": 1000,
    "breaker_cooldown": 0.2,
    "poll_interval": 0.05,
    "allow_networks": ["127.0.0.1/32"],
}


@dataclass(frozen=True)
class Hit:
    headers: dict[str, str]
    body: bytes
    status: int


@dataclass
class Receiver:
    """An HTTP server on 127.0.0.1 recording every request; it answers the statuses queued in
    ``first`` in turn, then ``status`` (``None``: it never answers). :meth:`stop` /
    :meth:`start` make it refuse connections."""

    port: int = 0
    status: int | None = 200
    first: list[int] = field(default_factory=list)
    hits: list[Hit] = field(default_factory=list)
    _server: uvicorn.Server | None = None
    _task: asyncio.Task[Any] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def delivered(self) -> list[Hit]:
        return [h for h in self.hits if 200 <= h.status < 300]

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        status = self.first.pop(0) if self.first else self.status
        headers = {k.decode(): v.decode() for k, v in scope["headers"]}
        self.hits.append(Hit(headers, body, status or 0))
        if status is None:
            await asyncio.sleep(3600)
        await send({"type": "http.response.start", "status": status, "headers": []})
        await send({"type": "http.response.body", "body": f"answered {status}".encode()})

    async def start(self) -> None:
        config = uvicorn.Config(
            self, host="127.0.0.1", port=self.port, lifespan="off", log_level="warning",
            timeout_graceful_shutdown=0.2,
        )  # fmt: skip
        self._server = uvicorn.Server(config)
        self._task = asyncio.create_task(self._server.serve())
        await wait_for(lambda: self._server.started, message="receiver listening")
        self.port = self._server.servers[0].sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        assert self._task is not None
        self._server.should_exit = True
        await asyncio.wait_for(self._task, 10)


@pytest_asyncio.fixture
async def receiver() -> AsyncIterator[Receiver]:
    found = Receiver()
    await found.start()
    try:
        yield found
    finally:
        with contextlib.suppress(Exception):
            await found.stop()


@dataclass
class Mailbox:
    """An SMTP server (aiosmtpd) on 127.0.0.1 keeping every message it accepts."""

    port: int = 0
    messages: list[Envelope] = field(default_factory=list)
    reply: str = "250 OK"

    async def handle_DATA(self, server: Any, session: Any, envelope: Envelope) -> str:  # noqa: N802
        if self.reply.startswith("250"):
            self.messages.append(envelope)
        return self.reply


@pytest_asyncio.fixture
async def mailbox() -> AsyncIterator[Mailbox]:
    box = Mailbox()
    loop = asyncio.get_running_loop()
    server = await loop.create_server(lambda: SMTP(box), "127.0.0.1", 0)
    box.port = server.sockets[0].getsockname()[1]
    try:
        yield box
    finally:
        server.close()
        await server.wait_closed()


@pytest_asyncio.fixture
async def start_notifications(service_settings, running_service):
    """``await start_notifications(**overrides)`` runs the service on the test's bus and
    database (:data:`FAST` settings and ``overrides``) until the test ends."""

    async def start(**overrides: Any) -> NotificationSettings:
        settings = service_settings(NotificationSettings, **(FAST | overrides))
        await running_service(build_app(settings))
        return settings

    return start


@pytest_asyncio.fixture
async def notifications(start_notifications) -> NotificationSettings:
    return await start_notifications()


def project() -> str:
    return f"acme/p{uuid.uuid4().hex[:8]}"


async def call(nc, settings, method: Rpc[Req, Res], payload: Req) -> Res:
    return await rpc.call(nc, settings.subjects, method, payload)


async def publish(nc, settings, event: CloudEvent[EventData], msg_id: str | None = None) -> None:
    headers = event_headers(event) | ({"Nats-Msg-Id": msg_id} if msg_id else {})
    await nc.jetstream().publish(
        settings.subjects.event(event.event_type), event.to_json(), headers=headers
    )


async def deliveries(nc, settings, hook: WebhookInfo, **query: Any) -> list[DeliveryInfo]:
    payload = ListDeliveries(project=hook.project, webhook_id=hook.id, **query)
    return (await call(nc, settings, Notifications.deliveries, payload)).deliveries


async def intake_drained(nc, settings) -> bool:
    """Every event so far was taken by the service: delivery rows exist for all that match."""
    stream = settings.subjects.stream_name(StreamKind.EVENTS)
    return await drained(nc.jetstream(), stream, "notifications-events")
