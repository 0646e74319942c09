"""Agent health: each agent announces itself, its queues and its slots at an interval."""

from __future__ import annotations

from datetime import datetime

from pydantic import Field

from axonal_events.base import EventData

__all__ = ["AgentHeartbeat"]


class AgentHeartbeat(EventData):
    """An agent is alive: what it serves, what it has and what it runs now."""

    type_name = "agent.heartbeat"

    agent: str = Field(min_length=1, description="The agent's name (its host by default).")
    queues: list[str] = Field(description="Queues the agent takes work from.")
    slots: dict[str, float] = Field(description="Declared capacity: cpu, memory (bytes), gpu.")
    free_slots: dict[str, float] = Field(description="Capacity not reserved by runs now.")
    runs: list[str] = Field(default_factory=list, description="Run uuids executing now.")
    interval_seconds: float = Field(gt=0, description="The next heartbeat is due after this.")
    at: datetime

    def subject_id(self) -> str | None:
        return self.agent
