"""Stopping background loops reliably on Python 3.11.

On 3.11, ``asyncio.wait_for`` can swallow a cancellation that arrives just as the awaited
future completes (nats-py waits on every PubAck that way). A loop whose cancellation is
swallowed runs on, and whoever awaits it hangs. :func:`cancel_and_wait` cancels until the
task is really done; :func:`wait_event` waits without ``wait_for``. Clean-up that must run to
its end while those repeated cancellations arrive (stopping a child process) goes through
:func:`finish_despite_cancellation`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Iterable
from typing import Any, TypeVar

__all__ = ["cancel_and_wait", "finish_despite_cancellation", "wait_event"]

T = TypeVar("T")

_RECANCEL_EVERY = 0.5  # seconds: a swallowed cancellation is repeated this often


async def wait_event(event: asyncio.Event, timeout: float) -> bool:
    """Wait for ``event`` at most ``timeout`` seconds; ``True`` when it is set."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(timeout):
            await event.wait()
    return event.is_set()


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]]) -> None:
    """Cancel ``tasks`` and wait until every one has ended, cancelling again if needed."""
    pending = {task for task in tasks if not task.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=_RECANCEL_EVERY)
    await asyncio.gather(*tasks, return_exceptions=True)


async def finish_despite_cancellation(work: Awaitable[T]) -> T:
    """Await ``work`` to its end even when the caller is cancelled meanwhile (once or again and
    again); a cancellation that arrived is raised once ``work`` has ended."""
    task = asyncio.ensure_future(work)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = cancelled or not task.done()
    result = task.result()
    if cancelled:
        raise asyncio.CancelledError
    return result
