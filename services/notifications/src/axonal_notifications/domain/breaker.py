"""A circuit breaker per receiver URL.

``closed`` while fewer than ``threshold`` attempts in a row failed. Then ``open``:
deliveries to the URL wait until ``open_until``. Once that passes the circuit is
``half_open``: one delivery (the probe) is let through, and the circuit is held open for the
probe's duration so that no second one follows it. A success closes the circuit; a failure
opens it again for another cool-down.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

__all__ = ["Circuit", "CircuitState"]


class CircuitState(StrEnum):
    CLOSED = "closed"
    OPEN = "open"
    HALF_OPEN = "half_open"


@dataclass(frozen=True, slots=True)
class Circuit:
    """Where one URL stands: failures in a row and, once tripped, until when it waits."""

    failures: int = 0
    open_until: datetime | None = None

    def state(self, now: datetime, threshold: int) -> CircuitState:
        if self.failures < threshold:
            return CircuitState.CLOSED
        if self.open_until is not None and now < self.open_until:
            return CircuitState.OPEN
        return CircuitState.HALF_OPEN

    def probing(self, now: datetime, hold: timedelta) -> Circuit:
        """The circuit while a probe is in flight: open for ``hold`` (the probe's timeout)."""
        return Circuit(self.failures, now + hold)

    def succeeded(self) -> Circuit:
        return Circuit()

    def failed(self, now: datetime, threshold: int, cooldown: timedelta) -> Circuit:
        failures = self.failures + 1
        return Circuit(failures, now + cooldown if failures >= threshold else None)
