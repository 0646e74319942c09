"""Which subscriptions want an event: its type, then the run attributes it carries."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from axonal_events import EventData
from axonal_events.webhooks import filter_matches

__all__ = ["Subscription", "wants"]


@dataclass(frozen=True, slots=True)
class Subscription:
    """An enabled subscription's filters; an empty attribute filter accepts every value."""

    id: str
    project: str
    events: tuple[str, ...]
    kinds: tuple[str, ...] = ()
    statuses: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()


def _value(data: EventData, name: str) -> str | None:
    value = getattr(data, name, None)
    return None if value is None else str(value)


def wants(sub: Subscription, event_type: str, data: EventData) -> bool:
    """Whether ``sub`` takes an event of ``event_type`` with ``data``.

    An attribute filter accepts only events that carry the attribute (``kinds`` never
    matches a ``metric.crossed``, which has no run kind).
    """
    if not any(filter_matches(p, event_type) for p in sub.events):
        return False
    if sub.kinds and _value(data, "kind") not in sub.kinds:
        return False
    if sub.statuses and _value(data, "status") not in sub.statuses:
        return False
    if sub.tags:
        carried: Sequence[str] = getattr(data, "tags", None) or ()
        return set(sub.tags) <= set(carried)
    return True
