"""Request dependencies: the gateway and the bearer token check."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from axonal_api.errors import ApiError
from axonal_api.gateway import Gateway
from axonal_api.settings import ApiSettings

__all__ = ["GatewayDep", "authorize", "gateway"]

_bearer = HTTPBearer(auto_error=False, description="`AXONAL_API_TOKEN`, when the api sets one.")


def gateway(request: Request) -> Gateway:
    found: Gateway | None = getattr(request.app.state, "gateway", None)
    if found is None:
        raise ApiError(503, "unavailable", "the api is not connected to NATS yet")
    return found


def authorize(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Accept the request when no token is configured or the bearer token matches."""
    settings: ApiSettings = request.app.state.settings
    if settings.api_token is None:
        return
    expected = settings.api_token.get_secret_value()
    given = credentials.credentials if credentials else ""
    if not secrets.compare_digest(given.encode(), expected.encode()):
        raise ApiError(
            401, "unauthorized", "a valid bearer token is required (Authorization: Bearer ...)"
        )


GatewayDep = Annotated[Gateway, Depends(gateway)]
