"""Wiring only: the evaluation service's application."""

from __future__ import annotations

from pathlib import Path

import structlog
from faststream import FastStream

from axonal_bus.service import Service
from axonal_evaluation.adapters import AdapterJudge
from axonal_evaluation.connections import rpc as connections_rpc
from axonal_evaluation.context import Context
from axonal_evaluation.datasets import handlers as datasets_handlers
from axonal_evaluation.datasets import rpc as datasets_rpc
from axonal_evaluation.deletion import handlers as deletion_handlers
from axonal_evaluation.evaluators import experiments
from axonal_evaluation.evaluators import handlers as evaluators_handlers
from axonal_evaluation.evaluators import rpc as evaluators_rpc
from axonal_evaluation.ports import Judge
from axonal_evaluation.queues import rpc as queues_rpc
from axonal_evaluation.score_configs import rpc as score_configs_rpc
from axonal_evaluation.settings import DEFAULT_SECRET_KEY, EvaluationSettings

__all__ = ["SERVICE", "build_app"]

log = structlog.get_logger(__name__)

SERVICE = Service(
    name="evaluation",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: EvaluationSettings, *, judge: Judge | None = None) -> FastStream:
    """The evaluation service on ``settings``: ``await build_app(settings).run()``;
    ``judge`` replaces the LLM provider adapters."""
    if settings.secret_key == DEFAULT_SECRET_KEY:
        log.warning(
            "evaluation.development_secret_key",
            hint="LLM connection secrets are encrypted with the published development key: "
            "set AXONAL_EVALUATION_SECRET_KEY (axonal up makes one per home)",
        )
    ctx = Context(SERVICE, settings, judge=judge or AdapterJudge(settings.judge_timeout))
    ctx.items_linked.append(experiments.item_jobs)
    connections_rpc.register(ctx)
    evaluators_rpc.register(ctx)
    evaluators_handlers.register(ctx)
    datasets_rpc.register(ctx)
    datasets_handlers.register(ctx)
    score_configs_rpc.register(ctx)
    queues_rpc.register(ctx)
    deletion_handlers.register(ctx)
    return ctx.application()
