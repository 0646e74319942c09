"""Request/reply payloads. A handler's failure is a reply too, never a silent timeout."""

from __future__ import annotations

from datetime import datetime
from typing import Generic, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from axonal_events.base import Payload

__all__ = ["PingReply", "PingRequest", "RpcError", "RpcOk", "RpcReply"]

T = TypeVar("T")


class RpcOk(BaseModel, Generic[T]):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ok: Literal[True] = True
    result: T


class RpcError(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    ok: Literal[False] = False
    code: str = Field(description="Stable machine-readable code: invalid_request, not_found, ...")
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
