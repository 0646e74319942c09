"""Pure decisions of the supervisor: restart delays and port choice."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Backoff", "choose_port"]


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
