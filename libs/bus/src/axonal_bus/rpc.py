"""Request/reply: queries between services, always answered with a result or an error.

A FastStream handler that raises sends no reply, so the caller would only see a timeout;
:func:`serve` turns every outcome into an :class:`~axonal_events.RpcOk` or
:class:`~axonal_events.RpcError` reply instead.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import nats.errors
import structlog
from faststream.nats import NatsBroker, NatsMessage
from nats.aio.client import Client
from pydantic import BaseModel, ValidationError

from axonal_bus.errors import NoRespondersError, Permanent, RemoteError, RpcTimeoutError
from axonal_events import RpcError, RpcOk

__all__ = ["request", "serve"]

log = structlog.get_logger(__name__)
Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)


def _error(code: str, message: str) -> dict[str, Any]:
    return RpcError(code=code, message=message).model_dump(mode="json")


def serve(
    broker: NatsBroker,
    subject: str,
    *,
    queue: str,
    request_model: type[Req],
    handler: Callable[[Req], Awaitable[BaseModel]],
) -> Any:
    """Answer requests on ``subject``; replicas share them through the ``queue`` group."""

    async def answer() -> dict[str, Any]:
        # Read from the context rather than injected: see axonal_bus.consumer.
        msg: NatsMessage = broker.context.get_local("message")
        try:
            req = request_model.model_validate_json(msg.body or b"{}")
        except ValidationError as exc:
            return _error("invalid_request", str(exc))
        try:
            result = await handler(req)
        except Permanent as exc:
            return _error("rejected", str(exc))
        except Exception:
            log.exception("rpc.failed", rpc=subject)
            return _error("internal", f"{subject} failed; the service log has the details")
        return {"ok": True, "result": result.model_dump(mode="json")}

    return broker.subscriber(subject, queue=queue, title=subject)(answer)


async def request(
    nc: Client,
    subject: str,
    payload: BaseModel,
    reply_model: type[Res],
    *,
    timeout: float = 2.0,
) -> Res:
    """Call ``subject`` and return the typed result, or raise a clear :class:`RpcError`."""
    try:
        reply = await nc.request(subject, payload.model_dump_json().encode(), timeout=timeout)
    except nats.errors.NoRespondersError:
        raise NoRespondersError(f"no service answers on {subject}: is it running?") from None
    except nats.errors.TimeoutError:
        raise RpcTimeoutError(f"no reply on {subject} within {timeout:g}s") from None
    doc = json.loads(reply.data)
    if not doc.get("ok"):
        err = RpcError.model_validate(doc)
        raise RemoteError(subject, err.code, err.message)
    return RpcOk[reply_model].model_validate(doc).result  # type: ignore[valid-type]
