"""Submit-time ``hubRef`` resolution: the registry's components (pushed, then built-in), each
reference fetched once per submission; the built-ins alone when the registry does not answer."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_api.gateway import Gateway
from axonal_bus.errors import NoRespondersError, RemoteError
from axonal_events import ErrorCode
from axonal_events.hub import ResolveComponent
from axonal_events.rpcs import Registry
from axonal_spec import SpecError
from axonal_spec.hub import builtin_hub, document_of

__all__ = ["fetch_component"]

_REFUSED = (ErrorCode.NOT_FOUND, ErrorCode.INVALID)


async def fetch_component(gw: Gateway, ref: str) -> Mapping[str, Any] | SpecError:
    """The document ``ref`` names, or the :class:`SpecError` at ``hubRef`` saying why not;
    the RPC error (a 503) when only a registry that does not answer could tell."""
    try:
        found = await gw.call(Registry.resolve_component, ResolveComponent(ref=ref))
    except RemoteError as exc:
        if exc.code in _REFUSED:
            return SpecError.at("hubRef", exc.remote_message)
        raise
    except NoRespondersError:
        try:
            return builtin_hub().resolve(ref)
        except SpecError:
            raise NoRespondersError(
                f"`{ref}` is no built-in component and the registry is not running"
            ) from None
    return document_of(ref, found.content)
