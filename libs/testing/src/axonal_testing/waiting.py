"""Wait for a condition instead of sleeping a fixed time."""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar, overload

__all__ = ["wait_for", "wait_for_sync"]

T = TypeVar("T")


@overload
async def wait_for(
    condition: Callable[[], Awaitable[T]],
    *,
    timeout: float = ...,
    interval: float = ...,
    message: str = ...,
) -> T: ...


@overload
async def wait_for(
    condition: Callable[[], T],
    *,
    timeout: float = ...,
    interval: float = ...,
    message: str = ...,
) -> T: ...


async def wait_for(
    condition: Callable[[], T | Awaitable[T]],
    *,
    timeout: float = 10.0,
    interval: float = 0.02,
    message: str = "condition",
) -> T:
    """Poll ``condition`` (sync or async) until it returns something truthy; return it.

    Raises ``TimeoutError`` naming ``message`` and the last value seen.
    """
    deadline = time.monotonic() + timeout
    last: T | None = None
    while True:
        result = condition()
        last = await result if inspect.isawaitable(result) else result
        if last:
            return last
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{message} not met within {timeout:g}s (last value: {last!r})")
        await asyncio.sleep(interval)


def wait_for_sync(
    condition: Callable[[], T],
    *,
    timeout: float = 10.0,
    interval: float = 0.05,
    message: str = "condition",
) -> T:
    """Blocking variant of :func:`wait_for` for synchronous tests."""
    deadline = time.monotonic() + timeout
    while True:
        last = condition()
        if last:
            return last
        if time.monotonic() >= deadline:
            raise TimeoutError(f"{message} not met within {timeout:g}s (last value: {last!r})")
        time.sleep(interval)
