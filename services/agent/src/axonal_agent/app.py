"""Wiring only: the agent service's application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_agent.adapters.local import LocalExecutor
from axonal_agent.context import Context
from axonal_agent.ports import Executor
from axonal_agent.runs import handlers as runs_handlers
from axonal_agent.runs import lifecycle as runs_lifecycle
from axonal_agent.settings import AgentSettings
from axonal_bus.service import Service

__all__ = ["SERVICE", "build_app"]

SERVICE = Service(
    name="agent",
    version="0.1.0",
    migrations=Path(__file__).resolve().parents[2] / "migrations",
)


def build_app(settings: AgentSettings, executor: Executor | None = None) -> FastStream:
    """The agent on ``settings``: ``await build_app(settings).run()``. Its attempts run on
    ``executor``, local processes unless told otherwise."""
    ctx = Context(SERVICE, settings, executor or LocalExecutor())
    runs_handlers.register(ctx)
    runs_lifecycle.register(ctx)
    return ctx.application()
