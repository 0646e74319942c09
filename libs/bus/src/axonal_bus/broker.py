"""The one way to create a FastStream NATS broker for an Axonal process."""

from __future__ import annotations

from typing import Any

import nats
import structlog
from faststream import AckPolicy
from faststream.nats import NatsBroker, NatsUserPassword
from nats.aio.client import Client
from nats.js import JetStreamContext

from axonal_bus.log import LogContextMiddleware
from axonal_bus.settings import BusSettings

__all__ = ["connect_nats", "core", "create_broker", "jetstream"]

log = structlog.get_logger(__name__)


async def _on_error(exc: Exception) -> None:
    # A forbidden publish is only reported here (asynchronously), so never drop these.
    log.error("nats.error", error=str(exc), error_type=type(exc).__name__)


def _auth(settings: BusSettings) -> dict[str, Any]:
    if not settings.nats_user:
        return {}
    password = settings.nats_password.get_secret_value() if settings.nats_password else ""
    return {"user": settings.nats_user, "password": password}


def _security(settings: BusSettings) -> NatsUserPassword | None:
    auth = _auth(settings)
    return NatsUserPassword(auth["user"], auth["password"]) if auth else None


async def connect_nats(settings: BusSettings, *, name: str, **kwargs: Any) -> Client:
    """A plain nats-py connection, for tools that need no subscribers (provisioning, ping).

    A service's own connection passes ``inbox_prefix=subjects.inbox_prefix(service)``: its
    NATS user may only read replies there."""
    kwargs.setdefault("error_cb", _on_error)
    return await nats.connect(settings.nats_servers, name=name, **_auth(settings), **kwargs)


def create_broker(settings: BusSettings, *, service: str, **kwargs: Any) -> NatsBroker:
    """A broker named after ``service`` with explicit acks and structured logging.

    FastStream's own per-message logger is off (it costs about a quarter of throughput);
    :class:`LogContextMiddleware` binds the message context and handlers log what matters.
    """
    return NatsBroker(
        settings.nats_servers,
        name=f"axonal-{service}",
        error_cb=_on_error,
        inbox_prefix=settings.subjects.inbox_prefix(service),
        ack_policy=AckPolicy.NACK_ON_ERROR,
        middlewares=[LogContextMiddleware],
        logger=kwargs.pop("logger", None),
        max_reconnect_attempts=-1,
        security=_security(settings),
        **kwargs,
    )


def core(broker: NatsBroker) -> Client:
    """The core NATS client of a connected broker (for plain, unstored messages)."""
    client: Client = broker.config.connection_state.connection
    return client


def jetstream(broker: NatsBroker) -> JetStreamContext:
    """The JetStream context of a connected broker (for raw, header-aware publishing)."""
    stream: JetStreamContext = broker.config.connection_state.stream
    return stream
