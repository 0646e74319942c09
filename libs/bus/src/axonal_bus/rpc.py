"""Request/reply: queries between services, always answered with a result or an error.

Both sides name the same :class:`~axonal_events.Rpc` descriptor. A FastStream handler that
raises sends no reply, so the caller would only see a timeout; :func:`serve` turns every
outcome into an :class:`~axonal_events.RpcOk` or :class:`~axonal_events.RpcError` reply
instead, whose code comes from the exception's type (see :mod:`axonal_bus.errors`). A result
is written by its model's own JSON serializer, so a model's JSON settings (NaN written as
``"NaN"`` in metric values) hold over the bus as they do in the api.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
import nats.errors
import structlog
from faststream.nats import NatsBroker, NatsMessage
from nats.aio.client import Client
from pydantic import BaseModel, ValidationError

from axonal_bus.errors import (
    NoRespondersError,
    Permanent,
    Rejected,
    RemoteError,
    Retryable,
    RpcTimeoutError,
)
from axonal_events import ErrorCode, Rpc, RpcError, Subjects

__all__ = ["call", "call_json", "error_code", "serve"]

log = structlog.get_logger(__name__)
Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)


def error_code(exc: Exception) -> ErrorCode:
    """The code a handler's exception is answered with."""
    if isinstance(exc, Rejected):
        return exc.code
    if isinstance(exc, Permanent):
        return ErrorCode.INVALID
    if isinstance(exc, Retryable):
        return ErrorCode.UNAVAILABLE
    return ErrorCode.INTERNAL


def _error(code: ErrorCode, message: str) -> dict[str, Any]:
    return RpcError(code=code, message=message).model_dump(mode="json")


def serve(
    broker: NatsBroker,
    subjects: Subjects,
    rpc: Rpc[Req, Res],
    handler: Callable[[Req], Awaitable[Res]],
    *,
    queue: str,
    workers: int = 1,
) -> Any:
    """Answer ``rpc``; replicas share the requests through the ``queue`` group, each
    answering up to ``workers`` at once (one: in the order they come)."""
    subject = rpc.subject(subjects)

    async def answer() -> dict[str, Any] | bytes:
        # Read from the context rather than injected: see axonal_bus.consumer.
        msg: NatsMessage = broker.context.get_local("message")
        try:
            req = rpc.request.model_validate_json(msg.body or b"{}")
        except ValidationError as exc:
            return _error(ErrorCode.INVALID, str(exc))
        try:
            result = await handler(req)
        except Exception as exc:
            code = error_code(exc)
            if code is not ErrorCode.INTERNAL:
                return _error(code, str(exc))
            log.exception("rpc.failed", rpc=subject)
            return _error(code, f"{subject} failed; the service log has the details")
        return b'{"ok":true,"result":' + result.model_dump_json().encode() + b"}"

    if workers > 1:
        return broker.subscriber(subject, queue=queue, title=subject, max_workers=workers)(answer)
    return broker.subscriber(subject, queue=queue, title=subject)(answer)


class _Answer(msgspec.Struct):
    """A reply as :func:`serve` writes it, its result left as the service's own JSON."""

    ok: bool = False
    result: msgspec.Raw = msgspec.Raw(b"null")


_ANSWER = msgspec.json.Decoder(_Answer)


async def call(
    nc: Client, subjects: Subjects, rpc: Rpc[Req, Res], request: Req, *, timeout: float = 2.0
) -> Res:
    """Call ``rpc`` and return its typed result, or raise a clear :class:`RpcError`."""
    result = await call_json(nc, subjects, rpc, request, timeout=timeout)
    return rpc.reply.model_validate_json(result)


async def call_json(
    nc: Client, subjects: Subjects, rpc: Rpc[Req, Res], request: Req, *, timeout: float = 2.0
) -> bytes:
    """Call ``rpc`` and return its result as the JSON the service wrote (a ``rpc.reply``), for
    a caller that passes a large reply on without reading it; errors as :func:`call`."""
    subject = rpc.subject(subjects)
    try:
        reply = await nc.request(subject, request.model_dump_json().encode(), timeout=timeout)
    except nats.errors.NoRespondersError:
        raise NoRespondersError(f"no service answers on {subject}: is it running?") from None
    except nats.errors.TimeoutError:
        raise RpcTimeoutError(f"no reply on {subject} within {timeout:g}s") from None
    answer = _ANSWER.decode(reply.data)
    if not answer.ok:
        err = RpcError.model_validate_json(reply.data)
        raise RemoteError(subject, err.code, err.message)
    return bytes(answer.result)
