"""What every handler of the evaluation service receives first."""

from __future__ import annotations

import asyncio
import math
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Protocol

from axonal_bus.outbox import PendingEvents
from axonal_bus.service import Service, ServiceContext
from axonal_db import Connection
from axonal_evaluation.ports import Judge
from axonal_evaluation.settings import EvaluationSettings
from axonal_events.datasets import RunItem
from axonal_events.trace_reads import TraceDetail

__all__ = ["Context", "ItemsLinked", "Pace", "RecentTraces"]


class ItemsLinked(Protocol):
    """Called in the transaction that links new run items of one dataset (to enqueue work in
    ``pending``, published once it commits)."""

    async def __call__(
        self,
        ctx: Context,
        conn: Connection,
        pending: PendingEvents,
        project_id: str,
        dataset_id: str,
        items: Sequence[RunItem],
    ) -> object: ...


class Pace:
    """Lets one call through every ``interval`` seconds, in the order they asked."""

    def __init__(self, interval: float) -> None:
        self._interval = interval
        self._next = 0.0

    async def wait(self) -> None:
        now = time.monotonic()
        slot = max(now, self._next)
        self._next = slot + self._interval
        await asyncio.sleep(slot - now)


class RecentTraces:
    """Traces this replica just read to match rules, for the jobs due at once (no delay) to
    judge without reading them again; the oldest are dropped beyond ``size``."""

    def __init__(self, size: int = 10_000) -> None:
        self._size = size
        self._traces: OrderedDict[str, TraceDetail] = OrderedDict()

    def put(self, detail: TraceDetail) -> None:
        self._traces[detail.trace.id] = detail
        self._traces.move_to_end(detail.trace.id)
        while len(self._traces) > self._size:
            self._traces.popitem(last=False)

    def take(self, trace_id: str) -> TraceDetail | None:
        return self._traces.pop(trace_id, None)


class Context(ServiceContext[EvaluationSettings]):
    """The service context with what the evaluators need beyond the bus and the database.

    Args:
        judge: asks an LLM provider for a structured answer (the adapters, built in app.py).
    """

    def __init__(self, service: Service, settings: EvaluationSettings, *, judge: Judge) -> None:
        super().__init__(service, settings)
        self.judge = judge
        self._caps: dict[str, asyncio.Semaphore] = {}
        self._paces: dict[str, Pace] = {}
        self.recent = RecentTraces()
        #: What else happens when experiments link items (the rules on their datasets, wired
        #: in app.py: datasets sit below evaluators and never import them).
        self.items_linked: list[ItemsLinked] = []

    async def link_items(
        self,
        conn: Connection,
        pending: PendingEvents,
        project_id: str,
        dataset_id: str,
        items: Sequence[RunItem],
    ) -> None:
        for hook in self.items_linked:
            await hook(self, conn, pending, project_id, dataset_id, items)

    def rule_pace(self, rule_id: str, per_minute: int) -> Pace:
        """What spaces one rule's judge calls on this replica: its share of ``per_minute``
        (the replicas share the rule's jobs, ``AXONAL_REPLICAS``)."""
        key = f"{rule_id}:{per_minute}"
        pace = self._paces.get(key)
        if pace is None:
            pace = self._paces[key] = Pace(60.0 * self.settings.replicas / per_minute)
        return pace

    def rule_cap(self, rule_id: str, limit: int) -> asyncio.Semaphore:
        """The semaphore holding one rule to its share of ``limit`` judge calls at once on this
        replica (at least one)."""
        key = f"{rule_id}:{limit}"  # a changed cap takes a semaphore of its own
        cap = self._caps.get(key)
        if cap is None:
            cap = self._caps[key] = asyncio.Semaphore(math.ceil(limit / self.settings.replicas))
        return cap
