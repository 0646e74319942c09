"""``/api/v1/auth``: sign in with a password (a web session, or a token for the CLI), sign out,
and who the caller is."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field

from axonal_api.access import CallerDep
from axonal_api.callers import CSRF_COOKIE, SESSION_COOKIE
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.gateway import Gateway
from axonal_api.routes.runs import ERRORS
from axonal_bus.errors import RemoteError
from axonal_events import ErrorCode
from axonal_events.principals import (
    AuthenticateRequest,
    Me,
    PasswordLoginRequest,
    TokenCreated,
)
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/auth", tags=["auth"], responses=ERRORS)

_SESSION_SECONDS = 12 * 3600


class Credentials(BaseModel):
    username: str = Field(min_length=1, max_length=64)
    password: str = Field(min_length=1, max_length=200)


class TokenRequest(Credentials):
    name: str = Field(default="cli", min_length=1, max_length=100)
    ttl_seconds: int = Field(default=90 * 86400, gt=0, le=400 * 86400)


@router.post("/login", summary="Sign in to the web UI (session and CSRF cookies)")
async def login(gw: GatewayDep, body: Credentials, request: Request, response: Response) -> Me:
    token = await _login(gw, body, "web session", _SESSION_SECONDS)
    secure = request.url.scheme == "https"
    response.set_cookie(
        SESSION_COOKIE,
        token.token,
        max_age=_SESSION_SECONDS,
        httponly=True,
        secure=secure,
        samesite="lax",
    )
    # readable by the page, which echoes it in the x-csrf-token header of every write
    response.set_cookie(
        CSRF_COOKIE,
        secrets.token_urlsafe(24),
        max_age=_SESSION_SECONDS,
        secure=secure,
        samesite="lax",
    )
    principal = await gw.call(Identity.authenticate, AuthenticateRequest(token=token.token))
    return Me(
        name=principal.name,
        via="session",
        superuser=principal.superuser,
        org_roles=principal.org_roles,
        project_roles=principal.project_roles,
    )


@router.post("/logout", status_code=204, summary="Sign out of the web UI")
async def logout(response: Response) -> None:
    response.delete_cookie(SESSION_COOKIE)
    response.delete_cookie(CSRF_COOKIE)


@router.post("/tokens", status_code=201, summary="A new token for a user name and password")
async def token(gw: GatewayDep, body: TokenRequest) -> TokenCreated:
    """What ``axonal login`` calls: the token is shown once, and expires."""
    return await _login(gw, body, body.name, body.ttl_seconds)


async def _login(gw: Gateway, body: Credentials, name: str, ttl_seconds: int) -> TokenCreated:
    request = PasswordLoginRequest(
        username=body.username, password=body.password, token_name=name, ttl_seconds=ttl_seconds
    )
    try:
        return await gw.call(Identity.login, request)
    except RemoteError as exc:
        if exc.code != ErrorCode.FORBIDDEN:
            raise
        raise ApiError(401, "unauthorized", "wrong user name or password") from None


@router.get("/me", summary="Who the request's credentials act for")
async def me(who: CallerDep) -> Me:
    principal = who.principal
    return Me(
        name=who.name,
        via=who.via,
        superuser=who.superuser,
        project=who.scope,
        org_roles=principal.org_roles if principal else {},
        project_roles=principal.project_roles if principal else {},
    )
