"""The outside effects the worker needs, as protocols (implemented in ``adapters``)."""

from __future__ import annotations

from typing import Protocol

from axonal_notifications.domain.deliveries import Job, Outcome

__all__ = ["Sender"]


class Sender(Protocol):
    async def send(self, job: Job) -> Outcome:
        """Make one attempt at ``job``; a receiver's failure is an outcome, never raised."""
        ...
