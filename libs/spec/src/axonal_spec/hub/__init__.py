"""Where referenced components come from: the Component Hub (``hubRef``), URLs (``urlRef``)
and local paths (``pathRef``). Pure seams plus local implementations; network resolvers live
in the CLI/API, outside this library."""

from axonal_spec.hub.local import ChainHub, ComponentHub, LocalHub, builtin_hub
from axonal_spec.hub.prefetch import Fetch, PrefetchedHub, compile_prefetched, document_of
from axonal_spec.hub.refs import HubRef, parse_hub_ref
from axonal_spec.hub.resolvers import MappedUrlResolver, PathResolver, UrlResolver

__all__ = (
    "ChainHub",
    "ComponentHub",
    "Fetch",
    "HubRef",
    "LocalHub",
    "MappedUrlResolver",
    "PathResolver",
    "PrefetchedHub",
    "UrlResolver",
    "builtin_hub",
    "compile_prefetched",
    "document_of",
    "parse_hub_ref",
)
