"""What every handler of the evaluation service receives first."""

from __future__ import annotations

import asyncio

from axonal_bus.service import Service, ServiceContext
from axonal_evaluation.ports import Judge
from axonal_evaluation.settings import EvaluationSettings

__all__ = ["Context"]


class Context(ServiceContext[EvaluationSettings]):
    """The service context with what the evaluators need beyond the bus and the database.

    Args:
        judge: asks an LLM provider for a structured answer (the adapters, built in app.py).
    """

    def __init__(self, service: Service, settings: EvaluationSettings, *, judge: Judge) -> None:
        super().__init__(service, settings)
        self.judge = judge
        self._caps: dict[str, asyncio.Semaphore] = {}

    def rule_cap(self, rule_id: str, limit: int) -> asyncio.Semaphore:
        """The semaphore holding one rule to ``limit`` judge calls at once on this replica."""
        key = f"{rule_id}:{limit}"  # a changed cap takes a semaphore of its own
        cap = self._caps.get(key)
        if cap is None:
            cap = self._caps[key] = asyncio.Semaphore(limit)
        return cap
