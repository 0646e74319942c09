"""One delivery attempt's job and outcome, and what the outcome means for the delivery."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from axonal_events.webhooks import DeliveryStatus
from axonal_notifications.domain.schedule import next_delay

__all__ = ["Job", "NewDelivery", "Outcome", "Verdict", "judge"]


@dataclass(frozen=True, slots=True)
class NewDelivery:
    """An event (its bytes as they were on the bus) for one target (a webhook subscription
    or a connection)."""

    target_id: str
    event_id: str
    event_type: str
    payload: bytes = field(repr=False)
    correlation_id: str | None = None


@dataclass(frozen=True, slots=True)
class Job:
    """A claimed delivery: the event's bytes, where they go and how (``kind``: ``webhook``
    signs the CloudEvent with ``secret``; a connection's ``settings`` hold the rest).

    ``url`` is also the key of the target's circuit breaker (``smtp://host:port`` for email);
    ``project`` is the target's.
    """

    target_id: str
    event_id: str
    event_type: str
    project: str
    url: str = field(repr=False)
    secret: str = field(repr=False)
    payload: bytes = field(repr=False)
    attempts: int
    round_start: int
    kind: str = "webhook"
    settings: Mapping[str, Any] = field(default_factory=dict, repr=False)
    correlation_id: str | None = None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one attempt gave: ``status_code`` is the HTTP status, or the SMTP reply code of
    an email (2xx is success in both), ``None`` when no response came."""

    job: Job
    at: datetime
    latency_ms: float
    status_code: int | None = None
    excerpt: str = ""
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300

    @property
    def gone(self) -> bool:
        """410 Gone: the receiver asks for no more deliveries (the subscription is disabled)."""
        return self.status_code == 410


@dataclass(frozen=True, slots=True)
class Verdict:
    status: DeliveryStatus
    attempts: int
    next_attempt_at: datetime | None = None


def judge(outcome: Outcome, schedule: Sequence[float]) -> Verdict:
    """The delivery's state after ``outcome``: delivered, retried per ``schedule``, or dead."""
    attempts = outcome.job.attempts + 1
    if outcome.ok:
        return Verdict(DeliveryStatus.DELIVERED, attempts)
    if outcome.gone:
        return Verdict(DeliveryStatus.DEAD, attempts)
    delay = next_delay(schedule, attempts - outcome.job.round_start)
    if delay is None:
        return Verdict(DeliveryStatus.DEAD, attempts)
    return Verdict(DeliveryStatus.FAILED, attempts, outcome.at + timedelta(seconds=delay))
