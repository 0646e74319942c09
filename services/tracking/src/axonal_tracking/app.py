"""Wiring only: the tracking service's definition."""

from __future__ import annotations

from pathlib import Path

from axonal_bus.service import ServiceContext, ServiceDefinition
from axonal_tracking import artifacts, handlers, models_rpc, rpc, traces_ingest, traces_rpc

__all__ = ["DEFINITION"]


def register(ctx: ServiceContext) -> None:
    handlers.register(ctx)
    rpc.register(ctx)
    artifacts.register(ctx)
    traces_ingest.register(ctx)
    traces_rpc.register(ctx)
    models_rpc.register(ctx)


DEFINITION = ServiceDefinition(
    name="tracking",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
    register=register,
)
