"""What every handler of the agent receives first: the service context, the executor its
attempts run on and the agent's memory."""

from __future__ import annotations

from axonal_agent.agent import Agent
from axonal_agent.ports import Executor
from axonal_agent.settings import AgentSettings
from axonal_bus.service import Service, ServiceContext

__all__ = ["Context"]


class Context(ServiceContext[AgentSettings]):
    """``ctx.executor`` runs the attempts (the local one, or a test's); ``ctx.agent`` holds
    the slots, the attempts under way and the runs asked to stop."""

    def __init__(self, service: Service, settings: AgentSettings, executor: Executor) -> None:
        super().__init__(service, settings)
        self.executor = executor
        self.agent = Agent(settings.slots)
