"""Container logs: lines the test script appends, read and followed by the log endpoint."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

__all__ = ["LogBook", "LogLine", "instance"]


def instance(pod: dict[str, Any], container: str) -> int:
    """Which run of ``container`` the pod is at: its ``restartCount``."""
    statuses = (pod.get("status") or {}).get("containerStatuses") or []
    counts = [s.get("restartCount") or 0 for s in statuses if s["name"] == container]
    return int(counts[0]) if counts else 0


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line a container wrote, and when."""

    at: datetime
    text: str

    def render(self, timestamps: bool) -> str:
        """The line as served, with the RFC 3339 timestamp prefix when asked for
        (``timestamps=true`` of https://kubernetes.io/docs/reference/kubernetes-api/workload-resources/pod-v1/#get-read-log-of-the-specified-pod)."""
        stamp = self.at.strftime("%Y-%m-%dT%H:%M:%S.%fZ") + " " if timestamps else ""
        return f"{stamp}{self.text}\n"


class LogBook:
    """Lines by (pod uid, container, instance); followers wait for more or for the container
    to end. ``instance`` is the container's ``restartCount``: a restarted container starts a
    new log, as ``kubectl logs`` shows the current one and ``--previous`` the one before
    (https://kubernetes.io/docs/reference/kubectl/generated/kubectl_logs/)."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str, int], list[LogLine]] = defaultdict(list)
        self._changed = asyncio.Event()
        self.closed = False

    def close(self) -> None:
        """End every follower."""
        self.closed = True
        self.poke()

    def append(self, pod_uid: str, container: str, *lines: str, instance: int = 0) -> None:
        """Add lines (one per string; a string with newlines is split)."""
        at = datetime.now(UTC)
        log = self._lines[pod_uid, container, instance]
        for text in lines:
            log.extend(LogLine(at, t) for t in text.splitlines())
        self.poke()

    def lines(self, pod_uid: str, container: str, instance: int = 0) -> list[LogLine]:
        """Every line of that instance of the container so far."""
        return list(self._lines.get((pod_uid, container, instance), []))

    def poke(self) -> None:
        """Wake the followers: new lines, or a container or pod that changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    def waiter(self) -> asyncio.Event:
        """Set at the next :meth:`poke`: take it before reading, then wait on it."""
        return self._changed
