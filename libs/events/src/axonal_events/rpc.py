"""Request/reply: typed descriptors, reply envelopes and error codes.

An :class:`Rpc` names one method a service answers, with its request and reply models; the
serving side and every caller use the same descriptor, so mypy checks that both agree. A
handler's failure is a reply too (:class:`RpcError` with an :class:`ErrorCode`), never a
silent timeout, and callers act on the code, never on the message text.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from axonal_events.base import Payload
from axonal_events.subjects import Subjects

__all__ = [
    "ErrorCode",
    "PingReply",
    "PingRequest",
    "Rpc",
    "RpcError",
    "RpcOk",
    "RpcReply",
    "ping_rpc",
    "replica_ping_rpc",
]

T = TypeVar("T")
Req = TypeVar("Req", bound=BaseModel)
Res = TypeVar("Res", bound=BaseModel)


class ErrorCode(StrEnum):
    """Why a call failed, for machines: the api maps each code to one HTTP status."""

    INVALID = "invalid"  # the request cannot be served as it is
    NOT_FOUND = "not_found"  # what it names does not exist
    CONFLICT = "conflict"  # it clashes with what exists (a taken name, a moved run)
    FORBIDDEN = "forbidden"  # the caller may not do this
    UNAVAILABLE = "unavailable"  # a dependency is down: try again later
    INTERNAL = "internal"  # a bug: the service log has the details


@dataclass(frozen=True, slots=True)
class Rpc(Generic[Req, Res]):
    """``<ns>.rpc.<service>.<method>``, taking ``request`` and answering ``reply``."""

    service: str
    method: str
    request: type[Req]
    reply: type[Res]
    summary: str = ""

    def subject(self, subjects: Subjects) -> str:
        return subjects.rpc(self.service, self.method)


class RpcOk(BaseModel, Generic[T]):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ok: Literal[True] = True
    result: T


class RpcError(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ok: Literal[False] = False
    code: ErrorCode = Field(description="Stable machine-readable code.")
    message: str = Field(description="What went wrong, for a person.")


RpcReply = RpcOk[T] | RpcError


class PingRequest(Payload):
    """Health probe answered by every service on ``<ns>.rpc.<service>.ping``."""


class PingReply(Payload):
    service: str
    instance: str = Field(description="Identifies the replica that answered.")
    version: str
    started_at: datetime
    status: Literal["ok", "degraded"] = "ok"
    checks: dict[str, str] = Field(default_factory=dict, description="Dependency -> state.")


def ping_rpc(service: str) -> Rpc[PingRequest, PingReply]:
    """``ping``, which every service answers under its own name."""
    return Rpc(service, "ping", PingRequest, PingReply, "Health of the service.")


def replica_ping_rpc(service: str, replica: int) -> Rpc[PingRequest, PingReply]:
    """``ping-<replica>``: answered by that replica of the service only (the embedded stack
    numbers its replicas, and watches each one)."""
    return Rpc(service, f"ping-{replica}", PingRequest, PingReply, "Health of one replica.")
