"""Scheduler settings (env prefix ``AXONAL_SCHEDULER_``)."""

from __future__ import annotations

from pydantic_settings import BaseSettings, SettingsConfigDict

__all__ = ["SchedulerSettings"]


class SchedulerSettings(BaseSettings):
    """``queue_concurrency`` bounds runs per queue (JSON: ``{"gpu": 2}``); others get
    ``default_concurrency``."""

    model_config = SettingsConfigDict(env_prefix="AXONAL_SCHEDULER_")

    queue_concurrency: dict[str, int] = {}
    default_concurrency: int = 50

    def concurrency(self, queue: str) -> int:
        return self.queue_concurrency.get(queue, self.default_concurrency)
