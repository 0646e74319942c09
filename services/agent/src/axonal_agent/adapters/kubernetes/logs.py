"""The log of every container of an attempt's pods, followed into its log sink.

Each container is followed once it has started (running or terminated), from its start (or
from ``since``, for an adopted attempt), until it terminates; a restarted container (a new
``restartCount``) is followed again. A stream cut short (the API server went away) is
followed again at the next call, less the lines it gave already. Lines go to the sink as
``stdout`` (the API merges stdout and stderr). A line says where it comes from unless it is
a main container's of a one-pod workload: ``[<container>]`` for an init step or a sidecar,
``[<pod>]`` (the pod's name less the workload's) for a pod of a distributed one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from datetime import datetime
from typing import Any

import structlog

from axonal_agent.adapters.kubernetes.client import KubeClient
from axonal_agent.adapters.kubernetes.feeds import TRANSIENT
from axonal_agent.ports import LogSink
from axonal_bus.aio import cancel_and_wait

__all__ = ["PodLogs"]

log = structlog.get_logger(__name__)

_Key = tuple[str, str, int]  # pod uid, container, restart count


def _started(pod: dict[str, Any]) -> list[tuple[str, int]]:
    """``(container, restart count)`` of the containers of ``pod`` that have started."""
    status = pod.get("status") or {}
    found = []
    statuses = [
        *(status.get("initContainerStatuses") or []),
        *(status.get("containerStatuses") or []),
    ]
    for item in statuses:
        state = item.get("state") or {}
        if "running" in state or "terminated" in state:
            found.append((str(item["name"]), int(item.get("restartCount") or 0)))
    return found


class PodLogs:
    """The followers of one attempt's containers (``workload``: its name; ``spread``: its
    pods are several, of a distributed kind)."""

    def __init__(
        self,
        client: KubeClient,
        namespace: str,
        sink: LogSink,
        *,
        workload: str,
        spread: bool,
        since: datetime | None = None,
    ) -> None:
        self._client, self._namespace, self._sink = client, namespace, sink
        self._workload, self._spread, self._since = workload, spread, since
        self._followers: dict[_Key, asyncio.Task[None]] = {}
        self._read: dict[_Key, int] = {}  # lines given to the sink, by container

    def follow(self, pods: Iterable[dict[str, Any]]) -> None:
        """Start following the containers of ``pods`` that started since the last call."""
        for pod in pods:
            meta = pod.get("metadata") or {}
            main = ((pod.get("spec") or {}).get("containers") or [{}])[0].get("name")
            for container, restarts in _started(pod):
                key = (str(meta.get("uid")), container, restarts)
                if key not in self._followers:
                    prefix = self._prefix(str(meta.get("name")), container, container == main)
                    follow = self._follow(key, str(meta["name"]), container, prefix)
                    self._followers[key] = asyncio.create_task(follow)

    def _prefix(self, pod: str, container: str, main: bool) -> str:
        where = []
        if self._spread:
            where.append(pod.removeprefix(f"{self._workload}-"))
        if not main:
            where.append(container)
        return f"[{'/'.join(where)}] " if where else ""

    async def _follow(self, key: _Key, pod: str, container: str, prefix: str) -> None:
        skip = self._read.setdefault(key, 0)
        try:
            stream = self._client.follow_log(self._namespace, pod, container, self._since)
            async for line in stream:
                if skip:
                    skip -= 1
                    continue
                self._read[key] += 1
                self._sink("stdout", prefix + line)
        except TRANSIENT as exc:  # cut short: the next call follows it again
            log.info("kube.log_cut", pod=pod, container=container, error=str(exc))
            del self._followers[key]

    async def drain(self, seconds: float) -> None:
        """Let the followers read what is left for ``seconds``, then end them."""
        tasks = list(self._followers.values())
        if tasks:
            await asyncio.wait(tasks, timeout=seconds)
        await cancel_and_wait(tasks)
