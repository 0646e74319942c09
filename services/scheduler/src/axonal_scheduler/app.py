"""Wiring only: the scheduler service's definition."""

from __future__ import annotations

from pathlib import Path

from axonal_bus.service import ServiceContext, ServiceDefinition
from axonal_scheduler import agents, automations_rpc, handlers, reactions, rpc, tracked
from axonal_scheduler.settings import SchedulerSettings

__all__ = ["DEFINITION"]


def register(ctx: ServiceContext) -> None:
    settings = SchedulerSettings()
    handlers.register(ctx, settings)
    agents.register(ctx, settings)
    rpc.register(ctx)
    tracked.register(ctx, settings)
    reactions.register(ctx, settings)
    automations_rpc.register(ctx)


DEFINITION = ServiceDefinition(
    name="scheduler",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
    register=register,
)
