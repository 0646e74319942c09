"""Compile against a hub that lives behind the network, keeping the compile pure.

:func:`compile_prefetched` runs a compile with a :class:`PrefetchedHub`, which answers from
documents fetched beforehand and notes every reference it did not have; those are fetched
(once each) and the compile runs again, until it asks for nothing new. A component that refers
to other components costs one more round, never one more fetch of a known reference.
"""

from __future__ import annotations

import copy
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeVar

import yaml

from axonal_spec.errors import SpecError

__all__ = ["Fetch", "PrefetchedHub", "compile_prefetched", "document_of"]

T = TypeVar("T")

#: Fetches one reference: its document, or the :class:`SpecError` (at ``hubRef``) saying why not.
Fetch = Callable[[str], Awaitable[Mapping[str, Any] | SpecError]]


def document_of(ref: str, content: str) -> Mapping[str, Any] | SpecError:
    """The fetched text of ``ref`` as a document, or the :class:`SpecError` saying why not."""
    try:
        document = yaml.safe_load(content)
    except yaml.YAMLError as exc:
        return SpecError.at("hubRef", f"hub component `{ref}` is not YAML: {exc}")
    if not isinstance(document, dict):
        return SpecError.at("hubRef", f"hub component `{ref}` is not a polyaxonfile mapping")
    return document


class PrefetchedHub:
    """A :class:`~axonal_spec.hub.ComponentHub` over fetched documents and refusals."""

    def __init__(self) -> None:
        self._known: dict[str, Mapping[str, Any] | SpecError] = {}
        self._wanted: set[str] = set()

    def resolve(self, ref: str) -> Mapping[str, Any]:
        found = self._known.get(ref)
        if isinstance(found, SpecError):
            raise found
        if found is None:
            self._wanted.add(ref)
            raise SpecError.at("hubRef", f"hub component `{ref}` is not fetched yet")
        return copy.deepcopy(dict(found))

    def take_wanted(self) -> list[str]:
        """The references asked for and not fetched yet (each returned once)."""
        wanted = sorted(self._wanted - self._known.keys())
        self._wanted.clear()
        return wanted

    def add(self, ref: str, found: Mapping[str, Any] | SpecError) -> None:
        self._known[ref] = found


async def compile_prefetched(attempt: Callable[[PrefetchedHub], Awaitable[T]], fetch: Fetch) -> T:
    """``attempt(hub)``'s result once every reference it follows is fetched; its
    :class:`SpecError` when it fails with nothing new to fetch."""
    hub = PrefetchedHub()
    while True:
        try:
            return await attempt(hub)
        except SpecError:
            wanted = hub.take_wanted()
            if not wanted:
                raise
            for ref in wanted:
                hub.add(ref, await fetch(ref))
