"""Pure decisions of the supervisor: restart delays, hang detection and port choice."""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

__all__ = ["Backoff", "HangWatch", "PingOutcome", "choose_port"]

#: What one ping of a service told: it answered (``ok`` or ``degraded``), it stayed ``silent``
#: while NATS was up, or nothing can be told (``unknown``: NATS down, or the supervisor's own
#: connection to it not up).
PingOutcome = Literal["ok", "degraded", "silent", "unknown"]


@dataclass
class Backoff:
    """Exponential restart delays: ``initial``, doubled per crash in a row, capped at ``maximum``.

    A service that ran healthy for ``reset_after`` seconds before it crashed starts the
    schedule again from ``initial``.
    """

    initial: float = 0.5
    factor: float = 2.0
    maximum: float = 30.0
    reset_after: float = 30.0
    failures: int = 0

    def delay(self) -> float:
        """The delay before the next restart, without counting a crash."""
        return float(min(self.maximum, self.initial * self.factor**self.failures))

    def crashed(self, healthy_for: float | None) -> float:
        """Record a crash after ``healthy_for`` seconds of health (``None``: never healthy).

        Returns how long to wait before starting the service again.
        """
        if healthy_for is not None and healthy_for >= self.reset_after:
            self.failures = 0
        wait = self.delay()
        self.failures += 1
        return wait


@dataclass
class HangWatch:
    """When a service that was healthy has stopped answering its pings for too long.

    Only silence while NATS is up counts: an ``unknown`` outcome (NATS down) starts the count
    again, so a NATS outage, and the reconnection that follows it, never makes every service
    look hung. So does a gap of more than ``max_gap`` seconds between two pings: the
    supervisor itself was paused (a laptop's sleep, SIGSTOP), and the services with it.
    ``timeout`` 0 turns detection off.
    """

    timeout: float
    since: float
    max_gap: float = math.inf
    last: float | None = None

    def observe(self, now: float, outcome: PingOutcome) -> bool:
        """Record one ping made at ``now``; ``True`` once the service counts as hung."""
        paused = self.last is not None and now - self.last > self.max_gap
        self.last = now
        if outcome != "silent" or paused:
            self.since = now
            return False
        return self.timeout > 0 and self.silent_for(now) >= self.timeout

    def silent_for(self, now: float) -> float:
        """Seconds without an answer while NATS was up."""
        return max(0.0, now - self.since)


def choose_port(
    recorded: int | None, preferred: int, is_free: Callable[[int], bool], pick: Callable[[], int]
) -> int:
    """The port to listen on: the one used last time, else the preferred one, else any free one.

    ``preferred`` 0 means no preference.
    """
    for candidate in (recorded, preferred):
        if candidate and is_free(candidate):
            return candidate
    return pick()
