"""The api's audit trail: every write a signed-in caller attempts becomes an
``api.write_audited`` event once it is answered (the identity service keeps them).

An ASGI middleware, so it sees the status the client got; the event is published after the
answer is sent, and a failure to publish it is logged, never shown to the client.
"""

from __future__ import annotations

from typing import Any

import structlog
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from axonal_api.callers import Caller
from axonal_api.gateway import Gateway
from axonal_api.permissions import PERMISSIONS
from axonal_events.catalog import ApiWriteAudited

__all__ = ["AuditWrites"]

log = structlog.get_logger(__name__)

_READS = frozenset({"GET", "HEAD", "OPTIONS"})


class AuditWrites:
    """Record each write answered to a known caller (ingestion excluded: it is telemetry)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in _READS:
            await self.app(scope, receive, send)
            return
        answered: dict[str, int] = {}

        async def sending(message: Message) -> None:
            if message["type"] == "http.response.start":
                answered["status"] = message["status"]
            await send(message)

        await self.app(scope, receive, sending)
        await _record(scope, answered.get("status", 500))


async def _record(scope: Scope, status: int) -> None:
    state: dict[str, Any] = scope.get("state", {})
    caller: Caller | None = state.get("caller")
    route = getattr(scope.get("route"), "path_format", None)
    permission = PERMISSIONS.get((scope["method"], route)) if route else None
    if caller is None or permission is None or not permission.audited:
        return
    gateway: Gateway | None = getattr(scope["app"].state, "gateway", None)
    if gateway is None:
        return
    params: dict[str, Any] = scope.get("path_params", {})
    project = state.get("audited_project")  # a route names it when the path does not
    if project is None:
        project = f"{params['owner']}/{params['project']}" if "project" in params else caller.scope
    org = params.get("org") or (project.partition("/")[0] if project else None)
    event = ApiWriteAudited(
        actor=caller.name,
        via=caller.via,
        method=scope["method"],
        route=route,
        path=scope["path"][:1000],
        status=status,
        org=org,
        client=_client(scope),
        user_agent=_header(scope, b"user-agent"),
    )
    try:
        await gateway.emit(event, project=project)
    except Exception as exc:  # noqa: BLE001 - the answer is sent; the loss is logged
        log.error("audit.not_recorded", path=scope["path"], actor=caller.name, error=str(exc))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key == name:
            return str(value.decode("latin-1"))[:500]
    return None


def _client(scope: Scope) -> str | None:
    """The first ``X-Forwarded-For`` address (behind a proxy), else the peer's."""
    if forwarded := _header(scope, b"x-forwarded-for"):
        return forwarded.split(",")[0].strip()
    peer = scope.get("client")
    return str(peer[0]) if peer else None
