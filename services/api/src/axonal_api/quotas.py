"""Per-project ingest rates, enforced in the api with one token bucket per project and kind.

A bucket holds at most one second of its rate. A request is let in while its bucket holds
tokens, then takes what it carried (spans, points), which may leave the bucket in debt: a big
batch is never refused for good, and the next requests wait until the debt is paid. A request
finding the bucket empty gets :class:`RateLimited` with the seconds until it is not (the api
answers 429 with ``Retry-After``), before its body is even read.

With several api replicas (``AXONAL_REPLICAS``), each holds its share of a rate: the load
balancer spreads a project's requests between them, so together they let the project's rate
in. (A balancer that sends one project to one replica gives that project less.)

Limits come from the identity service (``Identity.get_quotas``), kept :data:`TTL` seconds;
an expired entry is still used while one refresh runs in the background, so ingestion never
waits on an RPC but the first of a project. A limit a project leaves unset is the api's
default (``AXONAL_API_DEFAULT_SPANS_PER_SECOND``, ``..._POINTS_PER_SECOND``,
``..._STORAGE_BYTES``); no limit at all costs one dictionary read per request.
"""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass, field
from typing import Annotated, Literal

import structlog
from fastapi import Depends, Request

from axonal_api.gateway import Gateway
from axonal_api.settings import ApiSettings
from axonal_bus.errors import RpcError
from axonal_events.quotas import QuotaLimits
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Identity

__all__ = ["TTL", "Bucket", "Limits", "Quotas", "QuotasDep", "RateKind", "RateLimited"]

log = structlog.get_logger(__name__)

TTL = 30.0
#: How long defaults stand in for a project whose quotas could not be read.
_RETRY_READ = 5.0
_SIZE = 10_000

RateKind = Literal["spans", "points"]


class RateLimited(Exception):
    """The project's bucket is empty: retry in ``retry_after`` seconds (whole, at least 1)."""

    def __init__(self, project: str, kind: RateKind, limit: int, wait: float) -> None:
        self.retry_after = max(1, math.ceil(wait))
        super().__init__(
            f"project {project} is over its quota of {limit} {kind} per second; "
            f"retry in {self.retry_after} s (Retry-After)"
        )


@dataclass(slots=True)
class Bucket:
    """Tokens refilled at ``rate`` per second up to ``rate``; may go below zero (debt)."""

    rate: int
    tokens: float
    at: float

    def wait(self, now: float) -> float:
        """Refill; 0 when a request may go in now, else the seconds until one may."""
        self.tokens = min(float(self.rate), self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens > 0:
            return 0.0
        return (1 - self.tokens) / self.rate

    def take(self, count: int) -> None:
        self.tokens -= count


@dataclass(frozen=True, slots=True)
class Limits:
    """A project's limits as the api applies them (``None``: unlimited)."""

    spans_per_second: int | None = None
    points_per_second: int | None = None
    storage_bytes: int | None = None

    def rate(self, kind: RateKind) -> int | None:
        return self.spans_per_second if kind == "spans" else self.points_per_second


@dataclass(slots=True)
class _Kept:
    limits: Limits
    expires: float
    buckets: dict[RateKind, Bucket] = field(default_factory=dict)


class Quotas:
    """Each project's limits (cached) and buckets, by ``owner/name``."""

    def __init__(self, settings: ApiSettings, ttl: float = TTL) -> None:
        self.defaults = QuotaLimits(
            spans_per_second=settings.api_default_spans_per_second,
            points_per_second=settings.api_default_points_per_second,
            storage_bytes=settings.api_default_storage_bytes,
        )
        self.ttl = ttl
        self.replicas = settings.replicas
        self._kept: dict[str, _Kept] = {}
        self._refreshing: dict[str, asyncio.Task[None]] = {}

    def _limits(self, quotas: QuotaLimits) -> Limits:
        merged = self.defaults.model_copy(update=quotas.model_dump(exclude_none=True))
        return Limits(merged.spans_per_second, merged.points_per_second, merged.storage_bytes)

    async def _read(self, gw: Gateway, project: str) -> _Kept:
        owner, _, name = project.partition("/")
        now = time.monotonic()
        try:
            found = await gw.call(Identity.get_quotas, ProjectRef(owner=owner, name=name))
        except RpcError as exc:
            log.warning("api.quotas_unread", project=project, error=str(exc))
            return _Kept(self._limits(QuotaLimits()), now + _RETRY_READ)
        return _Kept(self._limits(found.quotas), now + self.ttl)

    async def _refresh(self, gw: Gateway, project: str) -> None:
        try:
            fresh = await self._read(gw, project)
            old = self._kept.get(project)
            if old is not None:  # a bucket keeps its tokens while its rate stays
                kept = {k: b for k, b in old.buckets.items() if b.rate == self._share(fresh, k)}
                fresh.buckets.update(kept)
            self._kept[project] = fresh
        finally:
            self._refreshing.pop(project, None)

    async def _entry(self, gw: Gateway, project: str) -> _Kept:
        kept = self._kept.get(project)
        if kept is None:
            if len(self._kept) >= _SIZE:
                self._kept.clear()
            kept = self._kept[project] = await self._read(gw, project)
        elif kept.expires <= time.monotonic() and project not in self._refreshing:
            task = asyncio.create_task(self._refresh(gw, project))
            self._refreshing[project] = task
        return kept

    def _share(self, kept: _Kept, kind: RateKind) -> int | None:
        """This replica's share of the project's rate of ``kind`` (at least 1 per second)."""
        rate = kept.limits.rate(kind)
        return None if rate is None else math.ceil(rate / self.replicas)

    async def limits(self, gw: Gateway, project: str) -> Limits:
        """The limits of ``owner/name`` (unlimited where neither it nor the api sets one)."""
        return (await self._entry(gw, project)).limits

    async def admit(self, gw: Gateway, project: str, kind: RateKind) -> Bucket | None:
        """The project's bucket of ``kind`` once it lets a request in (``None``: no limit);
        :class:`RateLimited` when it does not. The caller then takes what it carried."""
        kept = await self._entry(gw, project)
        share = self._share(kept, kind)
        if share is None:
            return None
        now = time.monotonic()
        bucket = kept.buckets.get(kind)
        if bucket is None:
            bucket = kept.buckets[kind] = Bucket(share, float(share), now)
        if wait := bucket.wait(now):
            raise RateLimited(project, kind, kept.limits.rate(kind) or share, wait)
        return bucket

    def forget(self, project: str) -> None:
        """Read the project's limits again on its next request (they were just changed)."""
        self._kept.pop(project, None)


async def quotas(request: Request) -> Quotas:
    found: Quotas = request.app.state.quotas
    return found


QuotasDep = Annotated[Quotas, Depends(quotas)]
