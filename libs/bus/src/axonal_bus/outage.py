"""Waiting out a dependency that is down, instead of spending a message's deliveries.

A handler that fails because PostgreSQL is restarting (or raises
:class:`~axonal_bus.errors.Unavailable`) would fail again at once, whatever the message: its
retries would be spent in seconds and the message dead-lettered although nothing is wrong with
it. Consumers therefore keep such a message, tell JetStream it is still in progress, and try
again with a growing pause until the dependency is back. Every other failure goes through the
retry policy as before.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import asyncpg
import structlog

from axonal_bus.errors import Unavailable

__all__ = ["is_outage", "retry_while_down"]

log = structlog.get_logger(__name__)

_OUTAGES: tuple[type[BaseException], ...] = (
    Unavailable,
    asyncpg.PostgresConnectionError,  # SQLSTATE class 08
    asyncpg.ConnectionDoesNotExistError,  # closed in the middle of a statement
    asyncpg.AdminShutdownError,  # 57P01: the server is shutting down
    asyncpg.CrashShutdownError,  # 57P02
    asyncpg.CannotConnectNowError,  # 57P03: starting up or recovering
)
_FIRST_PAUSE = 0.2
_LONGEST_PAUSE = 5.0  # well under every consumer's ack wait


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` says a dependency is down rather than that the work is wrong: the
    database's own connection errors, a refused or reset connection to it (a socket error
    raised inside the database driver), or :class:`Unavailable`. A refused connection to
    anything else (a webhook's URL) is the handler's failure, retried by its policy."""
    if isinstance(exc, _OUTAGES):
        return True
    return isinstance(exc, ConnectionError) and _raised_in_driver(exc)


def _raised_in_driver(exc: BaseException) -> bool:
    tb = exc.__traceback__
    while tb is not None:
        if str(tb.tb_frame.f_globals.get("__name__", "")).startswith("asyncpg."):
            return True
        tb = tb.tb_next
    return False


async def retry_while_down(
    attempt: Callable[[], Awaitable[None]], still_working: Callable[[], Awaitable[None]]
) -> None:
    """Run ``attempt`` until it ends other than by an outage (its other errors propagate);
    ``still_working`` (the messages' in-progress acks) runs before each pause."""
    pause = _FIRST_PAUSE
    while True:
        try:
            await attempt()
        except Exception as exc:
            if not is_outage(exc):
                raise
            log.warning("dependency.down", error=str(exc) or type(exc).__name__, retry_in=pause)
            await still_working()
            await asyncio.sleep(pause)
            pause = min(_LONGEST_PAUSE, pause * 2)
        else:
            return
