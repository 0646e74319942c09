"""Alert routes: which events they take, the identity of an alert, and de-duplication.

An alert is identified by its route, event type, run (the event's subject) and, for
``metric.crossed``, the rule. Within a route's window, counted in event time from the alert
last delivered, a repeat is suppressed: no delivery is added, and the route counts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from axonal_events import CloudEvent, EventData, MetricCrossed
from axonal_notifications.domain.filters import Subscription, wants

__all__ = ["Admission", "Alert", "Route", "admit", "alert_key", "matching"]


@dataclass(frozen=True, slots=True)
class Route:
    """A route's filters (as a subscription's), its connection and its window."""

    filters: Subscription
    connection_id: str
    dedup: timedelta

    @property
    def id(self) -> str:
        return self.filters.id


@dataclass(frozen=True, slots=True)
class Alert:
    """An event a route takes, keyed for de-duplication."""

    route: Route
    key: str
    at: datetime
    event_id: str


@dataclass(frozen=True, slots=True)
class Admission:
    """Which alerts are delivered, the repeats suppressed per (route id, key), and the new
    last delivered time of each key that delivered one."""

    sent: tuple[Alert, ...]
    suppressed: Mapping[tuple[str, str], int]
    last_sent: Mapping[tuple[str, str], datetime]


def alert_key(event: CloudEvent[EventData]) -> str:
    """``<event type>:<run or subject>[:<rule>]``: what makes two events the same alert."""
    data = event.data
    about = getattr(data, "run_uuid", None) or event.subject or event.id
    key = f"{event.event_type}:{about}"
    return f"{key}:{data.rule_id}" if isinstance(data, MetricCrossed) else key


def matching(routes: Sequence[Route], event: CloudEvent[EventData]) -> list[Alert]:
    """The alerts ``event`` raises on ``routes`` (all of its project)."""
    return [
        Alert(route, alert_key(event), event.time, event.id)
        for route in routes
        if wants(route.filters, event.event_type, event.data)
    ]


def admit(
    alerts: Sequence[Alert], last_sent: Mapping[tuple[str, str], datetime | None]
) -> Admission:
    """Decide, in event time order, which alerts go out given when each key last did."""
    last = dict(last_sent)
    sent: list[Alert] = []
    suppressed: dict[tuple[str, str], int] = {}
    changed: dict[tuple[str, str], datetime] = {}
    for alert in sorted(alerts, key=lambda a: (a.at, a.event_id)):
        slot = (alert.route.id, alert.key)
        previous = last.get(slot)
        if previous is not None and abs(alert.at - previous) < alert.route.dedup:
            suppressed[slot] = suppressed.get(slot, 0) + 1
            continue
        sent.append(alert)
        last[slot] = changed[slot] = alert.at
    return Admission(tuple(sent), suppressed, changed)
