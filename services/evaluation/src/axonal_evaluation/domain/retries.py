"""How long to wait before asking a provider again."""

from __future__ import annotations

__all__ = ["MAX_PROVIDER_ATTEMPTS", "backoff"]

#: Calls to a provider that answers 429 or 5xx before the job fails.
MAX_PROVIDER_ATTEMPTS = 6


def backoff(
    attempt: int, retry_after: float | None, *, base: float = 0.2, cap: float = 30.0
) -> float:
    """Seconds before attempt ``attempt + 1``: the provider's ``Retry-After`` when it sent one,
    else exponential from ``base``, never more than ``cap``."""
    if retry_after is not None and retry_after >= 0:
        return min(float(retry_after), cap)
    return min(base * 2.0 ** max(attempt - 1, 0), cap)
