"""Metric alerts, hooks and notification outcomes."""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from axonal_events.base import EventData
from axonal_events.numbers import NON_FINITE_AS_STRINGS, MetricValue

__all__ = [
    "NOTIFIERS",
    "VALUE_CHECKS",
    "Comparison",
    "HookRequested",
    "MetricCrossed",
    "NotificationDelivered",
    "NotificationFailed",
]


class Comparison(StrEnum):
    """How an alert rule compares a value with its threshold, or which kind of value it
    watches for (``is_nan``; ``is_inf``: either infinity), without a threshold."""

    GT = "gt"
    GTE = "gte"
    LT = "lt"
    LTE = "lte"
    EQ = "eq"
    IS_NAN = "is_nan"
    IS_INF = "is_inf"


#: The comparisons that take no threshold.
VALUE_CHECKS = frozenset({Comparison.IS_NAN, Comparison.IS_INF})


class MetricCrossed(EventData):
    """A metric of a run crossed the threshold of an alert rule (or became NaN or infinite,
    for an ``is_nan`` or ``is_inf`` rule, which has no threshold)."""

    model_config = NON_FINITE_AS_STRINGS
    type_name = "metric.crossed"

    run_uuid: str = Field(min_length=1)
    project: str = Field(min_length=1)
    metric: str = Field(min_length=1)
    value: MetricValue
    step: int | None = None
    rule_id: str = Field(min_length=1)
    comparison: Comparison
    threshold: float | None = None

    def subject_id(self) -> str | None:
        return self.run_uuid


NOTIFIERS = frozenset({"webhook", "slack", "discord", "mattermost", "teams", "pagerduty", "email"})
"""Hub components a hook with a ``connection`` runs as a notification, not as an operation."""


class HookRequested(EventData):
    """A finished run asks for one of its hooks to run.

    A hook whose ``hub_ref`` names one of :data:`NOTIFIERS` and that has a ``connection`` is
    delivered by the notifications service through that connection; any other hook is started
    as an operation by the scheduler with the parent's context in its params.
    """

    type_name = "hook.requested"

    run_uuid: str = Field(min_length=1)
    project: str = Field(min_length=1)
    hub_ref: str = Field(min_length=1, description="The component the hook runs.")
    trigger: str = Field(description="The final status that fired it, or 'done'.")
    status: str = Field(description="The run's final status.")
    connection: str | None = None
    params: dict[str, object] = Field(
        default_factory=dict, description="The hook's params, rendered in the parent's context."
    )
    queue: str | None = Field(default=None, description="Queue of an operation hook's run.")
    name: str | None = Field(default=None, description="The parent run's name.")
    kind: str | None = Field(default=None, description="The parent run's kind.")
    inputs: dict[str, object] = Field(default_factory=dict, description="The parent's inputs.")
    outputs: dict[str, object] = Field(default_factory=dict, description="The parent's outputs.")
    reason: str | None = Field(default=None, description="Why the parent ended as it did.")
    message: str | None = Field(default=None, description="The parent's last status message.")

    @property
    def notifier(self) -> str | None:
        """The notifier this hook is delivered by, or ``None`` for an operation hook."""
        name = self.hub_ref.rsplit("/", 1)[-1].split(":", 1)[0]
        return name if name in NOTIFIERS and self.connection else None

    def subject_id(self) -> str | None:
        return self.run_uuid


class _Delivery(EventData):
    notification_id: str = Field(min_length=1)
    source_event_id: str = Field(min_length=1, description="The event that was delivered.")
    channel: str = Field(description="webhook, slack, email, ...")
    target: str = Field(description="Where it went, secrets removed.")
    attempts: int = Field(ge=1)

    def subject_id(self) -> str | None:
        return self.notification_id


class NotificationDelivered(_Delivery):
    """A notification reached its target."""

    type_name = "notification.delivered"

    status_code: int | None = None
    latency_ms: float = Field(ge=0)


class NotificationFailed(_Delivery):
    """A notification attempt failed; ``final`` when no retry is left (dead letter)."""

    type_name = "notification.failed"

    error: str
    status_code: int | None = None
    final: bool
