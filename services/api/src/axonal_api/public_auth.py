"""HTTP Basic ``public key : secret key`` auth of the Langfuse-compatible ``/api/public`` routes.

Keys are verified by the identity service; a verified key is remembered for a short while so
an SDK flushing every second costs no RPC per request.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import time
from typing import Annotated

from fastapi import Depends, FastAPI, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel

from axonal_api.bodies import ErrorBody
from axonal_api.deps import gateway_of
from axonal_bus.errors import RemoteError
from axonal_events.api_keys import KeyProject, VerifyApiKeyRequest
from axonal_events.rpcs import Identity

__all__ = [
    "INGEST_RESPONSES",
    "READ_RESPONSES",
    "KeyProjectDep",
    "LangfuseErrorBody",
    "PublicError",
    "install_public_errors",
    "key_project",
]

_TTL = 30.0
_CACHE_SIZE = 10_000


class LangfuseErrorBody(BaseModel):
    """Errors of the ``/api/public`` routes, shaped as Langfuse answers them."""

    message: str
    error: str


_LANGFUSE: dict[str, object] = {"model": LangfuseErrorBody}
_AXONAL: dict[str, object] = {"model": ErrorBody}
#: Documented answers: Langfuse-shaped for auth and body errors, Axonal's for the rest.
INGEST_RESPONSES: dict[int | str, dict[str, object]] = {
    400: _LANGFUSE,
    401: _LANGFUSE,
    413: _LANGFUSE,
    415: _LANGFUSE,
    422: _AXONAL,
    503: _AXONAL,
}
READ_RESPONSES: dict[int | str, dict[str, object]] = {
    400: _AXONAL,
    401: _LANGFUSE,
    404: _AXONAL,
    422: _AXONAL,
    503: _AXONAL,
}


class PublicError(Exception):
    """An error answered the Langfuse way: ``{"message": ..., "error": ...}``."""

    def __init__(self, status: int, message: str, error: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.error = error


def install_public_errors(app: FastAPI) -> None:
    @app.exception_handler(PublicError)
    async def public_error(_: Request, exc: PublicError) -> JSONResponse:
        body = {"message": exc.message, "error": exc.error}
        headers = {"WWW-Authenticate": 'Basic realm="axonal"'} if exc.status == 401 else None
        return JSONResponse(body, status_code=exc.status, headers=headers)


def _unauthorized(message: str) -> PublicError:
    return PublicError(401, message, "UnauthorizedError")


def _credentials(header: str) -> tuple[str, str]:
    scheme, _, encoded = header.partition(" ")
    if scheme.lower() != "basic" or not encoded:
        raise _unauthorized("Authorization header must be 'Basic base64(publicKey:secretKey)'")
    try:
        decoded = base64.b64decode(encoded, validate=True).decode()
    except (binascii.Error, UnicodeDecodeError):
        raise _unauthorized("Authorization header is not valid base64") from None
    public_key, sep, secret_key = decoded.partition(":")
    if not sep or not public_key or not secret_key:
        raise _unauthorized("Authorization header must carry publicKey:secretKey")
    return public_key, secret_key


async def key_project(request: Request) -> KeyProject:
    """The project of the request's API key; 401 (Langfuse-shaped) otherwise."""
    header = request.headers.get("authorization")
    if not header:
        raise _unauthorized("No authorization header (HTTP Basic publicKey:secretKey)")
    public_key, secret_key = _credentials(header)
    cache: dict[str, tuple[float, KeyProject]] | None = getattr(
        request.app.state, "public_key_cache", None
    )
    if cache is None:
        cache = request.app.state.public_key_cache = {}
    fingerprint = hashlib.sha256(header.encode()).hexdigest()
    hit = cache.get(fingerprint)
    if hit and hit[0] > time.monotonic():
        return hit[1]
    try:
        info = await gateway_of(request).call(
            Identity.verify_api_key,
            VerifyApiKeyRequest(public_key=public_key[:200], secret_key=secret_key[:200]),
        )
    except RemoteError:
        raise _unauthorized("Invalid public key or secret key") from None
    if len(cache) >= _CACHE_SIZE:
        cache.clear()
    cache[fingerprint] = (time.monotonic() + _TTL, info.project)
    return info.project


KeyProjectDep = Annotated[KeyProject, Depends(key_project)]
