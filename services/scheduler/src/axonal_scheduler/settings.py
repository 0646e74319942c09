"""Scheduler settings (env prefix ``AXONAL_SCHEDULER_``)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["SchedulerSettings"]


class SchedulerSettings(BaseSettings):
    """``queue_concurrency`` bounds runs per queue (JSON: ``{"gpu": 2}``); others get
    ``default_concurrency``. ``queue_priority`` (JSON: ``{"urgent": 10}``, default 0) is the
    priority a run takes from its queue when it is created."""

    model_config = SettingsConfigDict(env_prefix="AXONAL_SCHEDULER_")

    queue_concurrency: dict[str, int] = {}
    default_concurrency: int = 50
    queue_priority: dict[str, int] = {}

    def concurrency(self, queue: str) -> int:
        return self.queue_concurrency.get(queue, self.default_concurrency)

    def priority(self, queue: str) -> int:
        return self.queue_priority.get(queue, 0)
