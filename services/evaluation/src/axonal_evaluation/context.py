"""What every handler of the evaluation service receives first."""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from axonal_bus.service import Service, ServiceContext
from axonal_evaluation.ports import Judge
from axonal_evaluation.settings import EvaluationSettings
from axonal_events.trace_reads import TraceDetail

__all__ = ["Context", "RecentTraces"]


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
        self.recent = RecentTraces()

    def rule_cap(self, rule_id: str, limit: int) -> asyncio.Semaphore:
        """The semaphore holding one rule to ``limit`` judge calls at once on this replica."""
        key = f"{rule_id}:{limit}"  # a changed cap takes a semaphore of its own
        cap = self._caps.get(key)
        if cap is None:
            cap = self._caps[key] = asyncio.Semaphore(limit)
        return cap
