"""What every handler of the optimization service receives first."""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from axonal_bus.service import Service, ServiceContext
from axonal_optimization.domain.bayes import compute_inline
from axonal_optimization.domain.gp import Array, Utility
from axonal_optimization.domain.studies import LiveStudy, Study
from axonal_optimization.settings import OptimizationSettings

__all__ = ["Context", "Held"]


@dataclass
class Held:
    """A study this replica holds: its row, its Optuna study, its running trials (run uuid ->
    number) so that a trial's end needs no read to find them, and those being stopped by the
    pruner."""

    study: Study
    live: LiveStudy
    running: dict[str, int] = field(default_factory=dict)
    pruned: set[str] = field(default_factory=set)


class Context(ServiceContext[OptimizationSettings]):
    """The service context with the studies this replica holds in memory.

    A study's sampler keeps state between suggestions, so one replica at a time works on a
    study (its lock here, its row locked in the database); a replica that does not hold a
    study, or lost it to an error, rebuilds it from the tables.
    """

    def __init__(self, service: Service, settings: OptimizationSettings) -> None:
        super().__init__(service, settings)
        self.studies: dict[str, Held] = {}
        self.tasks: list[asyncio.Task[None]] = []  # its background work (the pruning watch)
        self._gp: ProcessPoolExecutor | None = None
        self._locks: dict[str, asyncio.Lock] = {}

    def compute_gp(self, x: Array, y: Array, utility: Utility, seed: int) -> Array:
        """A GP's suggestion, computed in this replica's worker process: a fit takes
        hundreds of milliseconds of Python (the GIL), which the event loop must not wait on.
        Called from the thread that asks the study (it waits there)."""
        if self._gp is None:
            spawn = multiprocessing.get_context("forkserver")  # no fork of a threaded loop
            self._gp = ProcessPoolExecutor(max_workers=1, mp_context=spawn)
        return self._gp.submit(compute_inline, x, y, utility, seed).result()

    async def stop_worker(self) -> None:
        """Stop the worker process, if one started (on shutdown)."""
        if self._gp is not None:
            await asyncio.to_thread(self._gp.shutdown, cancel_futures=True)
            self._gp = None

    def study_lock(self, sweep_uuid: str) -> asyncio.Lock:
        lock = self._locks.get(sweep_uuid)
        if lock is None:
            lock = self._locks[sweep_uuid] = asyncio.Lock()
        return lock

    def forget(self, sweep_uuid: str) -> None:
        """Drop a study from memory (it ended, or its memory may disagree with its rows)."""
        self.studies.pop(sweep_uuid, None)
