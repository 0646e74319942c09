"""How an attempt on the cluster is doing, from two watches: its primary object, by name,
and its pods, by label (:mod:`~axonal_agent.adapters.kubernetes.feeds`).

Each change is looked at as it comes (and every ``tick`` seconds without one, so that a
container stuck pulling its image fails once ``stuck_after`` passed):
:func:`~axonal_agent.domain.kube.observe` says how it is doing, and the containers that
started are followed into the run's log. A success ends the watching at once; a failure
after ``settle`` seconds, during which a later look may say better why (a controller's
``Failed`` may come before the pod event that says the pod was evicted). A primary object
that is gone ends it too (:attr:`Observer.gone`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import structlog

from axonal_agent.adapters.kubernetes.client import POD, KubeClient
from axonal_agent.adapters.kubernetes.feeds import Feed
from axonal_agent.adapters.kubernetes.handle import Handle, Timing
from axonal_agent.adapters.kubernetes.logs import PodLogs
from axonal_agent.domain.kube import Observation, observe
from axonal_bus.aio import cancel_and_wait, wait_event

__all__ = ["Observer"]

log = structlog.get_logger(__name__)


class Observer:
    """Watches one attempt; ``observation`` is the latest look, ``on_change`` is called after
    each new one."""

    def __init__(
        self,
        client: KubeClient,
        handle: Handle,
        logs: PodLogs,
        timing: Timing,
        on_change: Callable[[], None],
    ) -> None:
        self.handle, self._logs, self._timing, self._on_change = handle, logs, timing, on_change
        seconds = timing.watch_seconds
        self.primary = Feed(
            client,
            handle.kind,
            handle.namespace,
            fields=f"metadata.name={handle.name}",
            seconds=seconds,
        )
        self.pod_feeds = [
            Feed(client, POD, handle.namespace, labels=selector, seconds=seconds)
            for selector in handle.pods
        ]
        self.observation: Observation | None = None
        self.gone = False
        self._failing_since: float | None = None
        self._woken = asyncio.Event()

    @property
    def feeds(self) -> list[Feed]:
        return [self.primary, *self.pod_feeds]

    def pods(self) -> list[dict[str, Any]]:
        """The attempt's pods, and those that failed and were deleted since (a pod of a lost
        node, removed by the pod garbage collector, still says why its Job failed)."""
        by_uid = {
            uid: pod
            for feed in self.pod_feeds
            for uid, pod in feed.departed.items()
            if (pod.get("status") or {}).get("phase") == "Failed"
        }
        by_uid |= {p["metadata"]["uid"]: p for f in self.pod_feeds for p in f.objects.values()}
        return sorted(by_uid.values(), key=lambda p: str(p["metadata"]["name"]))

    async def run(self) -> None:
        """Watch until the attempt succeeded, failed (and settled) or its object is gone."""
        feeds = [asyncio.create_task(feed.run(self._changed)) for feed in self.feeds]
        clock = asyncio.get_running_loop().time
        try:
            while True:
                wait = self._timing.tick
                if self._failing_since is not None:
                    wait = min(wait, self._failing_since + self._timing.settle - clock())
                await wait_event(self._woken, max(0.0, wait))
                self._woken.clear()
                for task in feeds:
                    if task.done():  # a feed runs until cancelled: this one broke
                        task.result()
                        raise RuntimeError(f"the watch of {self.handle.name} ended")
                self._look()
                seen = self.observation
                if self.gone or (seen is not None and seen.phase == "succeeded"):
                    return
                since = self._failing_since
                if since is not None and clock() >= since + self._timing.settle:
                    return
        finally:
            await cancel_and_wait(feeds)

    def _changed(self) -> None:
        self._look()
        self._woken.set()

    def _look(self) -> None:
        if self.gone or not all(feed.listed for feed in self.feeds):
            return
        pods = self.pods()
        self._logs.follow(p for f in self.pod_feeds for p in f.objects.values())
        primary = self.primary.objects.get(self.handle.name)
        if primary is None:
            self.gone = True
            return
        now = datetime.now(UTC)
        kind = self.handle.kind.kind
        seen = observe(kind, primary, pods, now=now, stuck_after=self._timing.stuck_after)
        if seen.phase == "failed" and self._failing_since is None:
            self._failing_since = asyncio.get_running_loop().time()
        if seen != self.observation:
            log.info("kube.observed", name=self.handle.name, phase=seen.phase, reason=seen.reason)
            self.observation = seen
            self._on_change()
