"""Watches: each write is a :class:`Change`; a :class:`Watcher` turns the changes it is
interested in into watch events, queued for its HTTP stream."""

from __future__ import annotations

import asyncio
import copy
from dataclasses import dataclass
from typing import Any

from axonal_testing.kube.resources import Resource
from axonal_testing.kube.selectors import Matcher

__all__ = ["Change", "Watcher"]


@dataclass(frozen=True, slots=True)
class Change:
    """One write: its resourceVersion, ADDED/MODIFIED/DELETED, the object before and after."""

    rv: int
    type: str
    res: Resource
    obj: dict[str, Any]
    previous: dict[str, Any] | None


class Watcher:
    """One watch request: a resource type, maybe a namespace, selectors, and its queue.

    https://kubernetes.io/docs/reference/using-api/api-concepts/#efficient-detection-of-changes:
    the stream is a series of ``{"type": ADDED|MODIFIED|DELETED|BOOKMARK|ERROR, "object": ...}``
    events. With a selector, an object that starts to match is ADDED and one that stops
    matching is DELETED, as the API server's watch cache does (``cache_watcher.go``).
    """

    def __init__(
        self,
        res: Resource,
        namespace: str | None,
        labels: Matcher,
        fields: Matcher,
        bookmarks: bool,
    ) -> None:
        self.res, self.namespace = res, namespace
        self._labels, self._fields, self._bookmarks = labels, fields, bookmarks
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue()

    def _matches(self, obj: dict[str, Any] | None) -> bool:
        if obj is None:
            return False
        if self.namespace is not None and obj["metadata"].get("namespace") != self.namespace:
            return False
        return self._labels(obj) and self._fields(obj)

    def offer(self, change: Change) -> None:
        """Queue the event ``change`` means to this watch, if any."""
        if change.res is not self.res:
            return
        now, before = self._matches(change.obj), self._matches(change.previous)
        obj = change.obj
        if change.type == "DELETED":
            kind = "DELETED" if now or before else ""
        elif now:
            kind = "MODIFIED" if before else "ADDED"
        elif before:  # stopped matching: a DELETED of the previous state at this version
            kind, obj = "DELETED", copy.deepcopy(change.previous or {})
            obj["metadata"]["resourceVersion"] = str(change.rv)
        else:
            kind = ""
        if kind:
            self.queue.put_nowait({"type": kind, "object": obj})

    def bookmark(self, revision: int) -> None:
        """Queue a BOOKMARK if the client asked for them (``allowWatchBookmarks``).

        https://kubernetes.io/docs/reference/using-api/api-concepts/#watch-bookmarks: "a
        special kind of event to mark that all changes up to a given resourceVersion the
        client is requesting have already been sent"; its object is of the watched kind and
        "only includes a .metadata.resourceVersion field".
        """
        if self._bookmarks:
            obj = {
                "kind": self.res.kind,
                "apiVersion": self.res.api_version,
                "metadata": {"resourceVersion": str(revision)},
            }
            self.queue.put_nowait({"type": "BOOKMARK", "object": obj})

    def end(self) -> None:
        """Close the stream."""
        self.queue.put_nowait(None)
