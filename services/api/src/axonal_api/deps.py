"""Request dependencies: the gateway and the bearer token check."""

from __future__ import annotations

import secrets
from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from axonal_api.errors import ApiError
from axonal_api.gateway import Gateway
from axonal_api.prompt_cache import PromptCache
from axonal_api.settings import ApiSettings
from axonal_bus.run_tokens import InvalidRunToken, RunClaims, verify_run_token

__all__ = ["GatewayDep", "PromptCacheDep", "authorize", "gateway", "gateway_of", "prompt_cache"]

_bearer = HTTPBearer(auto_error=False, description="`AXONAL_API_TOKEN`, when the api sets one.")


def gateway_of(request: Request) -> Gateway:
    """The NATS gateway; 503 while the api is not connected."""
    found: Gateway | None = getattr(request.app.state, "gateway", None)
    if found is None:
        raise ApiError(503, "unavailable", "the api is not connected to NATS yet")
    return found


# Dependencies are ``async``: FastAPI runs a plain function in a worker thread, which costs
# more than what these do.


async def gateway(request: Request) -> Gateway:
    """The NATS gateway, as a dependency."""
    return gateway_of(request)


async def authorize(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Accept the api token, or a run token on its own project's paths (none configured: all)."""
    settings: ApiSettings = request.app.state.settings
    if settings.api_token is None:
        return
    given = credentials.credentials if credentials else ""
    expected = settings.api_token.get_secret_value()
    if secrets.compare_digest(given.encode(), expected.encode()):
        return
    if given and settings.run_token_secret is not None:
        try:
            claims = verify_run_token(settings.run_token_secret.get_secret_value(), given)
        except InvalidRunToken as exc:
            raise ApiError(401, "unauthorized", str(exc)) from None
        _within_project(request, claims)
        return
    raise ApiError(
        401, "unauthorized", "a valid bearer token is required (Authorization: Bearer ...)"
    )


def _within_project(request: Request, claims: RunClaims) -> None:
    path = request.path_params
    if f"{path.get('owner')}/{path.get('project')}" != claims.project:
        raise ApiError(
            403, "forbidden", f"this run token is valid for project {claims.project} only"
        )


GatewayDep = Annotated[Gateway, Depends(gateway)]


async def prompt_cache(request: Request) -> PromptCache:
    cache: PromptCache = request.app.state.prompt_cache
    return cache


PromptCacheDep = Annotated[PromptCache, Depends(prompt_cache)]
