"""Wiring only: the tracking service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_tracking.alerts import rpc as alerts_rpc
from axonal_tracking.artifacts import handlers as artifacts_handlers
from axonal_tracking.artifacts import rpc as artifacts_rpc
from axonal_tracking.context import Context
from axonal_tracking.domain.runs import KnownRuns
from axonal_tracking.metrics import handlers as metrics_handlers
from axonal_tracking.metrics import rpc as metrics_rpc
from axonal_tracking.prices import rpc as prices_rpc
from axonal_tracking.retention import handlers as retention_handlers
from axonal_tracking.settings import TrackingSettings
from axonal_tracking.traces import handlers as traces_handlers
from axonal_tracking.traces import rpc as traces_rpc

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="tracking",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: TrackingSettings) -> FastStream:
    """The tracking service on ``settings``: ``await build_app(settings).run()``."""
    ctx = Context(SERVICE, settings, known_runs=KnownRuns())
    metrics_handlers.register(ctx)
    metrics_rpc.register(ctx)
    alerts_rpc.register(ctx)
    artifacts_handlers.register(ctx)
    artifacts_rpc.register(ctx)
    traces_handlers.register(ctx)
    traces_rpc.register(ctx)
    prices_rpc.register(ctx)
    retention_handlers.register(ctx)
    return ctx.application()
