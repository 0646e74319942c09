"""The event loop a service process runs on: uvloop where it is installed (Linux, macOS),
asyncio's own elsewhere. uvloop makes the socket work that services spend most of their time
on (NATS, PostgreSQL, HTTP) markedly cheaper."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run"]

T = TypeVar("T")


def run(main: Coroutine[Any, Any, T]) -> T:
    """Run ``main`` to completion on a new event loop, as :func:`asyncio.run` does."""
    try:
        import uvloop  # noqa: PLC0415 - optional: not available on Windows
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)
