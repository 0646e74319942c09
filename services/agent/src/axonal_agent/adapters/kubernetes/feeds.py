"""The objects of one kind matching a selector, kept current by list then watch.

A :class:`Feed` lists (the state, and the resourceVersion it is at), then watches from that
version; each watch ends after ``seconds`` (as the API server ends them anyway) and the
next resumes from the last version seen (a BOOKMARK's included). When the server no longer
has that version (``410 Gone``, after a compaction) the feed lists again: the listing
replaces what it held, so nothing that happened in between is lost, only its steps. Other
errors (the API server away, a dropped connection) are retried with a growing delay.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import aiohttp
import structlog
from kubernetes_asyncio.client.exceptions import ApiException

from axonal_agent.adapters.kubernetes.client import Gone, KubeClient
from axonal_agent.domain.kube import Kind

__all__ = ["Feed"]

log = structlog.get_logger(__name__)

#: What a call to the API server may fail with, short of a refusal to serve it.
TRANSIENT = (ApiException, aiohttp.ClientError, OSError, ValueError, TimeoutError)
_MAX_DELAY = 30.0


_DEPARTED = 50  # deleted objects remembered, the latest


class Feed:
    """``objects`` by name; ``listed`` once the first listing arrived; ``departed``: the
    last state of the objects deleted since (as a watch said), by uid."""

    def __init__(
        self,
        client: KubeClient,
        kind: Kind,
        namespace: str,
        *,
        labels: str = "",
        fields: str = "",
        seconds: int = 300,
    ) -> None:
        self._client, self.kind, self.namespace = client, kind, namespace
        self._labels, self._fields, self._seconds = labels, fields, seconds
        self.objects: dict[str, dict[str, Any]] = {}
        self.departed: dict[str, dict[str, Any]] = {}
        self.listed = False
        self.lists = 0  # how many listings it took (the first, then one per 410)

    async def run(self, changed: Callable[[], None]) -> None:
        """Keep ``objects`` current, calling ``changed`` after each change; until cancelled."""
        version: str | None = None
        failures = 0
        while True:
            try:
                if version is None:
                    version = await self._list()
                    changed()
                version = await self._watch(version, changed)
                failures = 0
            except Gone:
                log.info("kube.watch_expired", kind=self.kind.kind, selector=self._selector)
                version = None
            except TRANSIENT as exc:
                failures += 1
                delay = min(_MAX_DELAY, 0.2 * 2**failures)
                log.warning("kube.watch_failed", kind=self.kind.kind, error=str(exc), retry=delay)
                await asyncio.sleep(delay)

    @property
    def _selector(self) -> str:
        return self._labels or self._fields

    async def _list(self) -> str:
        listing = await self._client.list(
            self.kind, self.namespace, labels=self._labels, fields=self._fields
        )
        self.objects = {item["metadata"]["name"]: item for item in listing.items}
        self.listed = True
        self.lists += 1
        return listing.version

    async def _watch(self, version: str, changed: Callable[[], None]) -> str:
        """Apply the changes after ``version``; the last version seen."""
        stream = self._client.watch(
            self.kind,
            self.namespace,
            version,
            labels=self._labels,
            fields=self._fields,
            seconds=self._seconds,
        )
        async for kind, obj in stream:
            meta = obj.get("metadata") or {}
            version = str(meta.get("resourceVersion") or version)
            if kind == "BOOKMARK":
                continue
            name = meta["name"]
            held = self.objects.get(name)
            if kind == "DELETED":
                if held is not None and held["metadata"].get("uid") == meta.get("uid"):
                    del self.objects[name]
                self.departed[str(meta.get("uid"))] = obj
                while len(self.departed) > _DEPARTED:
                    del self.departed[next(iter(self.departed))]
            else:
                self.objects[name] = obj
            changed()
        return version
