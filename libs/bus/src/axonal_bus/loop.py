"""The event loop a service process runs on, and its garbage collector.

uvloop where it is installed (Linux, macOS), asyncio's own elsewhere: it makes the socket work
that services spend most of their time on (NATS, PostgreSQL, HTTP) markedly cheaper. A process
that starts child processes asks for asyncio's loop instead: uvloop forks the whole parent to
start one (about 12 ms for a service-sized process), where asyncio's loop uses ``vfork`` (under
2 ms). The collector is tuned for batch work (see :func:`tune_gc`).
"""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Coroutine
from typing import Any, TypeVar

__all__ = ["run", "tune_gc"]

T = TypeVar("T")

#: Objects allocated between young collections (CPython's default is 700), then how many
#: collections of one generation trigger one of the next.
_GC_THRESHOLDS = (20_000, 20, 20)


def tune_gc() -> None:
    """Make garbage collection cheap for a service that handles batches: the objects alive
    once it has started (modules, models, settings) are frozen out of every collection, and
    young collections run every 20,000 allocations instead of every 700. A batch of spans or
    events allocates many short-lived objects; with the defaults, collections that walk the
    whole heap took about a sixth of a busy service's CPU time.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(*_GC_THRESHOLDS)


def run(main: Coroutine[Any, Any, T], *, spawns_processes: bool = False) -> T:
    """Run ``main`` to completion on a new event loop, as :func:`asyncio.run` does, with the
    collector tuned (:func:`tune_gc`); on asyncio's own loop if it ``spawns_processes``."""
    tune_gc()
    if spawns_processes:
        return asyncio.run(main)
    try:
        import uvloop  # noqa: PLC0415 - optional: not available on Windows
    except ImportError:
        return asyncio.run(main)
    return uvloop.run(main)
