"""Wiring only: the optimization service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_optimization.context import Context
from axonal_optimization.deletion import handlers as deletion_handlers
from axonal_optimization.settings import OptimizationSettings
from axonal_optimization.studies import handlers as studies_handlers
from axonal_optimization.studies import rpc as studies_rpc

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="optimization",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: OptimizationSettings) -> FastStream:
    """The optimization service on ``settings``: ``await build_app(settings).run()``."""
    ctx = Context(SERVICE, settings)
    studies_handlers.register(ctx)
    studies_rpc.register(ctx)
    ctx.on_shutdown(ctx.stop_worker)
    deletion_handlers.register(ctx)
    return ctx.application()
