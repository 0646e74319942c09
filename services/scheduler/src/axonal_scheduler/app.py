"""Wiring only: the scheduler service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_bus.service import Service
from axonal_scheduler.agents import handlers as agents_handlers
from axonal_scheduler.automations import handlers as automations_handlers
from axonal_scheduler.automations import rpc as automations_rpc
from axonal_scheduler.context import Context, Deadlines
from axonal_scheduler.deletion import handlers as deletion_handlers
from axonal_scheduler.logs import handlers as logs_handlers
from axonal_scheduler.quotas import handlers as quotas_handlers
from axonal_scheduler.runs import handlers as runs_handlers
from axonal_scheduler.runs import rpc as runs_rpc
from axonal_scheduler.runs import schedule_rpc, schedules
from axonal_scheduler.settings import SchedulerSettings

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="scheduler",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: SchedulerSettings) -> FastStream:
    """The scheduler on ``settings``: ``await build_app(settings).run()``."""
    ctx = Context(SERVICE, settings, agent_deadlines=Deadlines())
    runs_handlers.register(ctx)
    runs_rpc.register(ctx)
    schedule_rpc.register(ctx)
    schedules.start_clock(ctx)
    logs_handlers.register(ctx)
    agents_handlers.register(ctx)
    quotas_handlers.register(ctx)
    automations_handlers.register(ctx)
    automations_rpc.register(ctx)
    deletion_handlers.register(ctx)
    return ctx.application()
