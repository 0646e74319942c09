"""Request dependencies: the gateway and the prompt cache."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from axonal_api.errors import ApiError
from axonal_api.gateway import Gateway
from axonal_api.prompt_cache import PromptCache

__all__ = ["GatewayDep", "PromptCacheDep", "gateway", "gateway_of", "prompt_cache"]


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


GatewayDep = Annotated[Gateway, Depends(gateway)]


async def prompt_cache(request: Request) -> PromptCache:
    cache: PromptCache = request.app.state.prompt_cache
    return cache


PromptCacheDep = Annotated[PromptCache, Depends(prompt_cache)]
