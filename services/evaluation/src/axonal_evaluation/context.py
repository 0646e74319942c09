"""What every handler of the evaluation service receives first."""

from __future__ import annotations

from axonal_bus.service import ServiceContext
from axonal_evaluation.settings import EvaluationSettings

__all__ = ["Context"]

Context = ServiceContext[EvaluationSettings]
