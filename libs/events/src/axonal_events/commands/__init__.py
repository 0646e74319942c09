"""Commands: requests addressed to one service, on ``<ns>.cmd.<service>.<verb>``.

A command travels in the same CloudEvents envelope as an event; its type is
``<service>.<verb>`` (``scheduler.submit``) and :data:`COMMANDS` decodes it. A command's
``id`` is its idempotency key: the receiving service records it in its inbox.
"""

from __future__ import annotations

from axonal_events.catalog.registry import Catalog
from axonal_events.commands.agent import ExecuteRun
from axonal_events.commands.optimization import AddTrials, OptimizeSweep, Trial
from axonal_events.commands.scheduler import (
    RUN_VERBS,
    RunAction,
    StatusReport,
    SubmitRun,
)

__all__ = [
    "COMMANDS",
    "RUN_VERBS",
    "AddTrials",
    "ExecuteRun",
    "OptimizeSweep",
    "RunAction",
    "StatusReport",
    "SubmitRun",
    "Trial",
    "command_subject_parts",
]

COMMANDS = Catalog()
for _model in (SubmitRun, StatusReport, ExecuteRun, AddTrials, OptimizeSweep):
    COMMANDS.register(_model)
COMMANDS.register(
    RunAction,
    *(f"scheduler.{verb}" for verb in RUN_VERBS),
    description="Act on a run: stop, restart, resume, approve, skip or delete it.",
)


def command_subject_parts(command_type: str) -> tuple[str, str]:
    """``"scheduler.submit"`` -> ``("scheduler", "submit")``: the service and the verb."""
    service, _, verb = command_type.partition(".")
    return service, verb
