"""When to deliver a failed message again, and when to give up."""

from __future__ import annotations

import random
from dataclasses import dataclass

__all__ = ["RetryPolicy"]


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """Exponential backoff with jitter, bounded by ``max_deliver`` deliveries.

    Args:
        max_deliver: deliveries before the message is dead-lettered (JetStream ``max_deliver``).
        base_delay: delay after the first failed delivery, in seconds.
        max_delay: ceiling of the delay.
        jitter: fraction of the delay added or removed at random, so replicas spread out.
    """

    max_deliver: int = 8
    base_delay: float = 1.0
    max_delay: float = 300.0
    jitter: float = 0.1

    def __post_init__(self) -> None:
        if self.max_deliver < 1:
            raise ValueError("max_deliver must be at least 1")
        if not 0 <= self.jitter < 1:
            raise ValueError("jitter must be in [0, 1)")

    def delay(self, delivered: int) -> float:
        """Seconds to wait after delivery number ``delivered`` (1-based) failed."""
        raw = min(self.max_delay, self.base_delay * 2.0 ** max(0, delivered - 1))
        return float(raw * (1 + random.uniform(-self.jitter, self.jitter)))

    def exhausted(self, delivered: int) -> bool:
        """Whether delivery number ``delivered`` was the last one allowed."""
        return delivered >= self.max_deliver
