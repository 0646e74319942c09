"""What the bus is told of attempts: ``notification.failed`` and ``notification.delivered``.

* every failed attempt is announced (``final`` when no retry is left: a dead letter);
* a success is announced when it delivers a notification through a connection (a hook or
  an alert: somebody was told) or a delivery that had failed before (it recovered). A webhook
  subscription's first-time successes are not: they are as many as the events it takes, and
  its delivery log shows them;
* a delivery of a ``notification.*`` event is never announced, so a subscription or an alert
  route that takes notification events cannot feed on its own deliveries.

Each announcement's id derives from the delivery and the attempt's number, so an outcome
recorded again announces nothing new.
"""

from __future__ import annotations

import uuid

from axonal_events import (
    CloudEvent,
    EventData,
    NotificationDelivered,
    NotificationFailed,
    new_event,
)
from axonal_events.webhooks import DeliveryStatus
from axonal_notifications.domain.deliveries import Job, Outcome, Verdict
from axonal_notifications.domain.secrets import mask_url

__all__ = ["SOURCE", "announcement", "notification_id"]

SOURCE = "axonal/notifications"
_UNANNOUNCED = "notification."


def notification_id(job: Job) -> str:
    """The delivery's id in announcements: its target's id and its event's id."""
    return f"{job.target_id}:{job.event_id}"


def announcement(outcome: Outcome, verdict: Verdict) -> CloudEvent[EventData] | None:
    """The event announcing ``outcome`` (judged ``verdict``), or ``None`` when it is not
    announced."""
    job = outcome.job
    if job.event_type.startswith(_UNANNOUNCED):
        return None
    if outcome.ok and job.kind == "webhook" and verdict.attempts == 1:
        return None
    common = {
        "notification_id": notification_id(job),
        "source_event_id": job.event_id,
        "channel": job.kind,
        "target": mask_url(job.url),
        "attempts": verdict.attempts,
        "status_code": outcome.status_code,
    }
    data: EventData
    if outcome.ok:
        data = NotificationDelivered(**common, latency_ms=outcome.latency_ms)
    else:
        data = NotificationFailed(
            **common,
            error=outcome.error or f"answered {outcome.status_code}",
            final=verdict.status is DeliveryStatus.DEAD,
        )
    key = f"axonal:{notification_id(job)}:{verdict.attempts}"
    return new_event(
        data,
        source=SOURCE,
        project=job.project or None,
        event_id=str(uuid.uuid5(uuid.NAMESPACE_URL, key)),
        correlation_id=job.correlation_id,
    )
