"""Health of a running stack, asked of each service over the bus (a real ping RPC)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Literal

from nats.aio.client import Client
from pydantic import BaseModel, Field

from axonal_bus.broker import connect_nats
from axonal_bus.errors import RpcError
from axonal_bus.ping import ping
from axonal_bus.settings import BusSettings
from axonal_events import Subjects
from axonal_stack.state import StackState

__all__ = ["ServiceHealth", "StackStatus", "check_service", "connect", "stack_status"]


class ServiceHealth(BaseModel):
    """One service as ``axonal status`` shows it."""

    service: str
    status: Literal["ok", "degraded", "down"]
    instance: str | None = None
    version: str | None = None
    started_at: datetime | None = None
    uptime_seconds: float | None = None
    checks: dict[str, str] = Field(default_factory=dict)
    error: str | None = None
    restarts: int = 0

    @property
    def healthy(self) -> bool:
        return self.status == "ok"


class StackStatus(BaseModel):
    """The ``axonal status --json`` document."""

    running: bool
    healthy: bool
    phase: str
    home: str
    nats_url: str | None = None
    database_url: str | None = None
    api_url: str | None = None
    artifacts_url: str | None = None
    namespace: str | None = None
    started_at: datetime | None = None
    services: list[ServiceHealth] = Field(default_factory=list)
    error: str | None = None


async def connect(nats_url: str) -> Client:
    """A short-lived client that fails fast when NATS is not there."""
    return await connect_nats(
        BusSettings(nats_url=nats_url),
        name="axonal-stack",
        connect_timeout=2,
        max_reconnect_attempts=0,
        allow_reconnect=False,
    )


async def check_service(
    nc: Client, subjects: Subjects, service: str, timeout: float = 2.0
) -> ServiceHealth:
    """Ping ``service``; an unanswered ping is reported as ``down`` with the reason."""
    try:
        reply = await ping(nc, subjects, service, timeout)
    except RpcError as exc:
        return ServiceHealth(service=service, status="down", error=str(exc))
    uptime = (datetime.now(UTC) - reply.started_at).total_seconds()
    return ServiceHealth(
        service=service,
        status=reply.status,
        instance=reply.instance,
        version=reply.version,
        started_at=reply.started_at,
        uptime_seconds=max(uptime, 0.0),
        checks=reply.checks,
    )


async def stack_status(state: StackState, *, running: bool, timeout: float = 2.0) -> StackStatus:
    """Ping every service of ``state`` (when the stack runs) and summarise."""
    status = StackStatus(
        running=running,
        healthy=False,
        phase=state.phase if running else "stopped",
        home=state.home,
        nats_url=state.nats_url,
        database_url=state.database_url,
        api_url=state.api_url,
        artifacts_url=state.artifacts_url,
        namespace=state.namespace,
        started_at=state.started_at if running else None,
    )
    names = sorted(state.services)
    if not running or state.nats_url is None:
        status.services = [ServiceHealth(service=n, status="down") for n in names]
        return status
    try:
        nc = await connect(state.nats_url)
    except Exception as exc:  # noqa: BLE001 - reported, not raised
        status.error = f"cannot reach NATS at {state.nats_url}: {exc or type(exc).__name__}"
        status.services = [ServiceHealth(service=n, status="down") for n in names]
        return status
    try:
        subjects = Subjects(state.namespace)
        checks = [check_service(nc, subjects, name, timeout) for name in names]
        status.services = list(await asyncio.gather(*checks))
    finally:
        await nc.close()
    for health in status.services:
        health.restarts = state.services[health.service].restarts
    status.healthy = state.phase == "running" and all(h.healthy for h in status.services)
    return status
