"""Wiring only: the agent's definition and its application."""

from __future__ import annotations

from pathlib import Path

from faststream import FastStream

from axonal_agent import handlers
from axonal_agent.adapters.local import LocalExecutor
from axonal_agent.agent import Agent
from axonal_agent.ports import Executor
from axonal_agent.settings import AgentSettings
from axonal_bus.service import ServiceContext, ServiceDefinition, ServiceSettings, build_app

__all__ = ["MIGRATIONS", "build_agent_app", "definition"]

MIGRATIONS = Path(__file__).resolve().parents[2] / "migrations"
VERSION = "0.1.0"


def definition(agent: Agent) -> ServiceDefinition:
    def register(ctx: ServiceContext) -> None:
        handlers.register(ctx, agent)

    return ServiceDefinition(
        name="agent", version=VERSION, migrations=MIGRATIONS, register=register
    )


def build_agent_app(
    settings: ServiceSettings | None = None,
    agent_settings: AgentSettings | None = None,
    executor: Executor | None = None,
) -> FastStream:
    """The agent service (:func:`~axonal_bus.service.build_app`) plus its own start and stop."""
    agent = Agent(agent_settings or AgentSettings(), executor or LocalExecutor())
    app = build_app(definition(agent), settings)
    app.after_startup(agent.start)
    app.on_shutdown(agent.stop)
    return app
