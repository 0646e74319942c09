"""Health of a running stack: NATS, PostgreSQL and each service's ping, checked concurrently.

Every check is bounded (about 2 s in all, whatever is down) and says what it found down in
:attr:`StackStatus.down`; the probes are plain protocol exchanges (:mod:`axonal_stack.probes`).
"""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import BaseModel, Field, ValidationError

from axonal_events import Subjects
from axonal_events.rpc import ping_rpc, replica_ping_rpc
from axonal_stack.probes import NatsProbe, ProbeError, postgres_problem
from axonal_stack.settings import StackPaths
from axonal_stack.state import ServiceState, StackState
from axonal_stack.users import admin_url

__all__ = ["ServiceHealth", "StackStatus", "check_service", "stack_status"]

#: Seconds to connect to NATS or PostgreSQL, and for a service to answer its ping.
CONNECT_TIMEOUT = 1.0
PING_TIMEOUT = 1.0


class ServiceHealth(BaseModel):
    """One service (or one replica of it: ``api-2``) as ``axonal status`` shows it."""

    service: str
    replica: int | None = None
    url: str | None = Field(default=None, description="Where it serves HTTP (an api).")
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
    ui_url: str | None = Field(default=None, description="The web UI: the api's root URL.")
    nats_url: str | None = None
    database_url: str | None = None
    api_url: str | None = None
    artifacts_url: str | None = None
    namespace: str | None = None
    started_at: datetime | None = None
    services: list[ServiceHealth] = Field(default_factory=list)
    error: str | None = None
    down: dict[str, str] = Field(
        default_factory=dict,
        description="What is down and why: supervisor, nats, postgres or a service's name.",
    )


async def check_service(
    probe: NatsProbe,
    subjects: Subjects,
    service: str,
    timeout: float = PING_TIMEOUT,
    replica: int | None = None,
) -> ServiceHealth:
    """Ping ``service`` (that ``replica`` of it, when given); an unanswered ping is reported
    as ``down`` with the reason."""
    method = ping_rpc(service) if replica is None else replica_ping_rpc(service, replica)
    try:
        data = await probe.request(method.subject(subjects), b"{}", timeout)
        doc = json.loads(data)
        if not doc.get("ok"):
            message = doc.get("message", "an error")
            return ServiceHealth(service=service, status="degraded", error=f"ping: {message}")
        health = ServiceHealth.model_validate({**doc["result"], "service": service})
    except ProbeError as exc:
        return ServiceHealth(service=service, status="down", error=f"no answer to ping: {exc}")
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        return ServiceHealth(service=service, status="degraded", error=f"odd ping reply: {exc}")
    if health.started_at is not None:
        health.uptime_seconds = max((datetime.now(UTC) - health.started_at).total_seconds(), 0.0)
    return health


async def _ping_all(
    nats_url: str, subjects: Subjects, services: dict[str, ServiceState], timeout: float
) -> tuple[str | None, list[ServiceHealth]]:
    """Why NATS cannot be reached (or ``None``), and the health of each service (replica)."""
    names = sorted(services)
    try:
        probe = await NatsProbe.connect(nats_url, CONNECT_TIMEOUT)
    except ProbeError as exc:
        unchecked = "not checked: NATS is unreachable"
        return str(exc), [ServiceHealth(service=n, status="down", error=unchecked) for n in names]

    async def check(name: str) -> ServiceHealth:
        state = services[name]
        health = await check_service(
            probe, subjects, state.service or name, timeout, replica=state.replica
        )
        return health.model_copy(update={"service": name})

    try:
        return None, list(await asyncio.gather(*(check(n) for n in names)))
    finally:
        await probe.close()


async def _no_problem() -> str | None:
    return None


def _probe_url(state: StackState) -> str:
    """The stack's NATS as its admin when the stack made the users, else as it is."""
    assert state.nats_url is not None
    if not state.nats_users:
        return state.nats_url
    return admin_url(StackPaths(Path(state.home)).nats_users, state.nats_url)


def _address(url: str) -> str:
    """``host:port`` of each URL of ``url`` (a cluster's nodes are comma-separated)."""
    found = []
    for one in url.split(","):
        parts = urlsplit(one.strip())
        found.append(f"{parts.hostname}:{parts.port}" if parts.port else str(parts.hostname))
    return ", ".join(found)


async def stack_status(
    state: StackState, *, running: bool, timeout: float = PING_TIMEOUT
) -> StackStatus:
    """Check NATS, PostgreSQL and every service of ``state`` (when the stack runs) at once."""
    status = StackStatus(
        running=running,
        healthy=False,
        phase=state.phase if running else "stopped",
        home=state.home,
        ui_url=state.ui_url,
        nats_url=state.nats_url,
        database_url=state.database_url,
        api_url=state.api_url,
        artifacts_url=state.artifacts_url,
        namespace=state.namespace,
        started_at=state.started_at if running else None,
    )
    names = sorted(state.services)
    if not running:
        status.down = {"supervisor": "the stack's supervisor is not running"}
        status.services = [ServiceHealth(service=n, status="down") for n in names]
        return status
    down: dict[str, str] = {}
    database = postgres_problem(state.database_url, CONNECT_TIMEOUT) if state.database_url else None
    if state.nats_url is None:
        down["nats"] = "NATS has no address yet"
        problem = await (database or _no_problem())
        status.services = [ServiceHealth(service=n, status="down") for n in names]
    else:
        (nats_problem, status.services), problem = await asyncio.gather(
            _ping_all(_probe_url(state), Subjects(state.namespace), state.services, timeout),
            database or _no_problem(),
        )
        if nats_problem:
            down["nats"] = f"NATS unreachable at {_address(state.nats_url)}: {nats_problem}"
    if problem and state.database_url:
        down["postgres"] = f"PostgreSQL unreachable at {_address(state.database_url)}: {problem}"
    for role, server in state.servers.items():
        restarting = f"(the supervisor is restarting it: restart #{server.restarts + 1})"
        if role in down and not server.up:
            down[role] += f" {restarting}"
        elif role in state.nats_nodes and not server.up:  # the others serve meanwhile
            down[role] = f"NATS node {role} is down {restarting}"
    for health in status.services:
        service = state.services[health.service]
        health.restarts = service.restarts
        health.replica, health.url = service.replica, service.url
        if health.status == "down" and "nats" not in down:
            down[health.service] = f"{health.service}: {health.error}"
            if service.process is None:
                down[health.service] += " (the supervisor is restarting it)"
    status.down = down
    status.error = "; ".join(down.values()) or None
    status.healthy = (
        state.phase == "running" and not down and all(h.healthy for h in status.services)
    )
    return status
