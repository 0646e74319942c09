"""Container logs: lines the test script appends, read and followed by the log endpoint."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass
from datetime import UTC, datetime

__all__ = ["LogBook", "LogLine"]


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
    """Lines by (pod uid, container); followers wait for more or for the container to end."""

    def __init__(self) -> None:
        self._lines: dict[tuple[str, str], list[LogLine]] = defaultdict(list)
        self._changed = asyncio.Event()
        self.closed = False

    def close(self) -> None:
        """End every follower."""
        self.closed = True
        self.poke()

    def append(self, pod_uid: str, container: str, *lines: str) -> None:
        """Add lines (one per string; a string with newlines is split)."""
        at = datetime.now(UTC)
        for text in lines:
            self._lines[pod_uid, container].extend(LogLine(at, t) for t in text.splitlines())
        self.poke()

    def lines(self, pod_uid: str, container: str) -> list[LogLine]:
        """Every line of the container so far."""
        return list(self._lines.get((pod_uid, container), []))

    def poke(self) -> None:
        """Wake the followers: new lines, or a container or pod that changed."""
        self._changed.set()
        self._changed = asyncio.Event()

    def waiter(self) -> asyncio.Event:
        """Set at the next :meth:`poke`: take it before reading, then wait on it."""
        return self._changed
