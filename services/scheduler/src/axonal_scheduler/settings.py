"""Scheduler settings: the shared service settings (``AXONAL_NATS_URL``,
``AXONAL_DATABASE_URL``...) and the queues' own (prefix ``AXONAL_SCHEDULER_``)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from axonal_bus.service import ServiceSettings

__all__ = ["SchedulerSettings"]


class SchedulerSettings(ServiceSettings):
    """``queue_concurrency`` bounds runs per queue (JSON: ``{"gpu": 2}``); others get
    ``default_concurrency``. ``queue_priority`` (JSON: ``{"urgent": 10}``, default 0) is the
    priority a run takes from its queue when it is created. A schedule's slot fires on time
    when the clock reaches it within ``schedule_grace`` seconds (older: missed, and its
    catch-up policy decides); ``schedule_poll`` bounds how long a clock sleeps unwoken.
    ``default_project_concurrency`` bounds the active runs of a project that sets no
    ``concurrent_runs`` quota (none: unbounded)."""

    model_config = SettingsConfigDict(env_prefix="AXONAL_SCHEDULER_")

    queue_concurrency: dict[str, int] = Field(default_factory=dict)
    default_concurrency: int = 50
    default_project_concurrency: int | None = Field(default=None, ge=0)
    queue_priority: dict[str, int] = Field(default_factory=dict)
    schedule_grace: float = 1.0
    schedule_poll: float = 1.0
    retention_every: float = Field(default=3600.0, gt=0, description="Seconds between passes.")
    retention_batch: int = Field(default=1000, ge=1, description="Log lines per transaction.")

    def concurrency(self, queue: str) -> int:
        return self.queue_concurrency.get(queue, self.default_concurrency)

    def priority(self, queue: str) -> int:
        return self.queue_priority.get(queue, 0)
