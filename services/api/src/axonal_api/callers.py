"""Who is calling: a credential of the request turned into a :class:`Caller`.

Accepted, in this order: the operator's ``AXONAL_API_TOKEN`` (a superuser), a run token (its
run's project only), a user's or service account's token (``Authorization: Bearer``), a
project API key (``Authorization: Basic publicKey:secretKey``, its project only), and the web
UI's session cookie. Verified credentials are remembered for a short while, so a client
sending many requests costs no RPC per request.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import secrets
import time
from dataclasses import dataclass
from typing import Literal

from fastapi import Request

from axonal_api.deps import gateway_of
from axonal_api.settings import ApiSettings
from axonal_bus.errors import RemoteError
from axonal_bus.run_tokens import InvalidRunToken, verify_run_token
from axonal_events.api_keys import KeyProject, VerifyApiKeyRequest
from axonal_events.principals import AuthenticateRequest, Principal, Role
from axonal_events.rpcs import Identity

__all__ = [
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "ROOT",
    "SESSION_COOKIE",
    "Caller",
    "Unauthenticated",
    "caller_of",
]

SESSION_COOKIE = "axonal_session"
CSRF_COOKIE = "axonal_csrf"
CSRF_HEADER = "x-csrf-token"
_TTL = 30.0
_CACHE_SIZE = 10_000
_SAFE = frozenset({"GET", "HEAD", "OPTIONS"})

Via = Literal["root", "run", "token", "key", "session"]


class Unauthenticated(Exception):
    """No credential, or one that is not valid (401), or a session write without CSRF (403)."""

    def __init__(self, message: str, status: int = 401) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Caller:
    """A request's principal; a key or a run token holds one project (``scope``) only."""

    name: str
    via: Via
    principal: Principal | None = None
    scope: str | None = None  # ``owner/name``: the only project of a key or a run token
    scoped_role: Role = Role.NONE
    key_project: KeyProject | None = None  # a key's project

    @property
    def superuser(self) -> bool:
        return self.principal is not None and self.principal.superuser

    def role_in(self, project: str) -> Role:
        """The caller's role in ``owner/name``."""
        if self.scope is not None:
            return self.scoped_role if self.scope == project else Role.NONE
        return self.principal.role_in(project) if self.principal else Role.NONE

    def role_in_org(self, org: str) -> Role:
        if self.scope is not None:
            return Role.NONE
        return self.principal.role_in_org(org) if self.principal else Role.NONE


#: The operator's ``AXONAL_API_TOKEN``: a superuser.
ROOT = Caller("root", "root", Principal(id="root", name="root", kind="service", superuser=True))


class _Cache:
    def __init__(self) -> None:
        self._entries: dict[str, tuple[float, Caller]] = {}

    def get(self, key: str) -> Caller | None:
        hit = self._entries.get(key)
        return hit[1] if hit and hit[0] > time.monotonic() else None

    def put(self, key: str, caller: Caller) -> Caller:
        if len(self._entries) >= _CACHE_SIZE:
            self._entries.clear()
        self._entries[key] = (time.monotonic() + _TTL, caller)
        return caller

    def clear(self) -> None:
        self._entries.clear()


def _cache(request: Request) -> _Cache:
    found: _Cache | None = getattr(request.app.state, "caller_cache", None)
    if found is None:
        found = request.app.state.caller_cache = _Cache()
    return found


async def caller_of(request: Request) -> Caller:
    """The request's caller; :class:`Unauthenticated` says why there is none."""
    header = request.headers.get("authorization")
    if header:
        scheme, _, value = header.partition(" ")
        if scheme.lower() == "bearer" and value:
            return await _bearer(request, value.strip())
        if scheme.lower() == "basic" and value:
            return await _basic(request, value.strip())
        raise Unauthenticated("the Authorization header must be 'Bearer <token>' or 'Basic ...'")
    if session := request.cookies.get(SESSION_COOKIE):
        _check_csrf(request)
        return await _token(request, session, "session")
    raise Unauthenticated("no credentials")


async def _bearer(request: Request, token: str) -> Caller:
    settings: ApiSettings = request.app.state.settings
    if settings.api_token is not None and secrets.compare_digest(
        token.encode(), settings.api_token.get_secret_value().encode()
    ):
        return ROOT
    if token.count(".") == 2 and settings.run_token_secret is not None:
        try:
            claims = verify_run_token(settings.run_token_secret.get_secret_value(), token)
        except InvalidRunToken as exc:
            raise Unauthenticated(str(exc)) from None
        return Caller(
            f"run:{claims.run_uuid}", "run", scope=claims.project, scoped_role=Role.MEMBER
        )
    return await _token(request, token, "token")


async def _token(request: Request, token: str, via: Via) -> Caller:
    cache = _cache(request)
    fingerprint = f"{via}:{hashlib.sha256(token.encode()).hexdigest()}"
    if hit := cache.get(fingerprint):
        return hit
    try:
        principal = await gateway_of(request).call(
            Identity.authenticate, AuthenticateRequest(token=token[:200])
        )
    except RemoteError:
        raise Unauthenticated(
            "the token is not valid: it may have expired or been revoked"
        ) from None
    return cache.put(fingerprint, Caller(principal.name, via, principal))


async def _basic(request: Request, encoded: str) -> Caller:
    cache = _cache(request)
    fingerprint = "key:" + hashlib.sha256(encoded.encode()).hexdigest()
    if hit := cache.get(fingerprint):
        return hit
    try:
        decoded = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise Unauthenticated("the Authorization header is not valid base64") from None
    public_key, sep, secret_key = decoded.partition(":")
    if not sep or not public_key or not secret_key:
        raise Unauthenticated("Basic credentials must be publicKey:secretKey")
    try:
        info = await gateway_of(request).call(
            Identity.verify_api_key,
            VerifyApiKeyRequest(public_key=public_key[:200], secret_key=secret_key[:200]),
        )
    except RemoteError:
        raise Unauthenticated("invalid public key or secret key") from None
    caller = Caller(
        f"key:{info.public_key}",
        "key",
        scope=f"{info.project.owner}/{info.project.name}",
        scoped_role=Role.named(info.role),
        key_project=info.project,
    )
    return cache.put(fingerprint, caller)


def _check_csrf(request: Request) -> None:
    """A cookie session's writes must echo its CSRF cookie in a header (double submit)."""
    if request.method in _SAFE:
        return
    cookie = request.cookies.get(CSRF_COOKIE, "")
    header = request.headers.get(CSRF_HEADER, "")
    if not cookie or not secrets.compare_digest(cookie.encode(), header.encode()):
        raise Unauthenticated(f"a session's writes need the {CSRF_HEADER} header (CSRF)", 403)
