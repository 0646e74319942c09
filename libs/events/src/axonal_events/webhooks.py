"""Webhook subscriptions of a project and their deliveries (RPCs of the notifications service).

A subscription names the event types it wants with exact types or wildcards (``run.*``,
``*``), checked against the catalog: a filter that names no known event type is a validation
error, not a subscription that silently never fires. Each matching event is delivered as the
CloudEvent it is on the bus, signed per the Standard Webhooks spec; a delivery's id is the
event's id.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload
from axonal_events.catalog import CATALOG

__all__ = [
    "RESPONSE_EXCERPT_CHARS",
    "DeleteWebhook",
    "DeliveryAttempt",
    "DeliveryInfo",
    "DeliveryList",
    "DeliveryStatus",
    "ListDeliveries",
    "ListWebhooks",
    "ReplayDeliveries",
    "ReplayResult",
    "ReplaySelection",
    "ReplayWindow",
    "WebhookConfig",
    "WebhookInfo",
    "WebhookList",
    "WebhookSpec",
    "filter_matches",
    "matching_event_types",
]

#: Characters of a receiver's response body kept with each attempt.
RESPONSE_EXCERPT_CHARS = 500
_PROJECT = r"^[^/\s]+/[^/\s]+$"
_ID = r"^[0-9a-f]{32}$"


def filter_matches(pattern: str, event_type: str) -> bool:
    """Whether ``pattern`` (``run.succeeded``, ``run.*``, ``*``) selects ``event_type``.

    ``*`` alone selects every type; inside a pattern it stands for one dot-separated token.
    """
    if pattern == "*":
        return True
    want, have = pattern.split("."), event_type.split(".")
    return len(want) == len(have) and all(w in ("*", h) for w, h in zip(want, have, strict=True))


def matching_event_types(pattern: str) -> list[str]:
    """The catalog's event types that ``pattern`` selects."""
    return sorted({e.event_type for e in CATALOG if filter_matches(pattern, e.event_type)})


class DeliveryStatus(StrEnum):
    """``pending`` (first attempt to come), ``failed`` (retry scheduled), ``delivered``, or
    ``dead`` (no attempt left, or its subscription was disabled; replayable)."""

    PENDING = "pending"
    FAILED = "failed"
    DELIVERED = "delivered"
    DEAD = "dead"


class WebhookConfig(Payload):
    """Where to send which events of a project."""

    url: str = Field(max_length=2000, description="http(s) URL receiving signed POSTs.")
    events: list[str] = Field(
        min_length=1,
        max_length=50,
        description="Event types or wildcards: run.succeeded, run.*, metric.crossed, *.",
    )
    kinds: list[str] = Field(
        default_factory=list, max_length=20, description="Only events of runs of these kinds."
    )
    statuses: list[str] = Field(
        default_factory=list, max_length=20, description="Only events with one of these statuses."
    )
    tags: list[str] = Field(
        default_factory=list, max_length=20, description="Only events carrying every one of these."
    )
    description: str = Field(default="", max_length=500)

    @field_validator("url")
    @classmethod
    def _http_url(cls, value: str) -> str:
        parts = urlsplit(value)
        if parts.scheme not in {"http", "https"} or not parts.hostname:
            raise ValueError("url must be an absolute http:// or https:// URL")
        if parts.username or parts.password:
            raise ValueError("url must not carry credentials")
        return value

    @field_validator("events")
    @classmethod
    def _known_events(cls, patterns: list[str]) -> list[str]:
        for pattern in patterns:
            if matching_event_types(pattern):
                continue
            if "*" in pattern:
                raise ValueError(f"event filter {pattern!r} matches no event type")
            known = ", ".join(sorted({e.event_type for e in CATALOG}))
            raise ValueError(f"unknown event type {pattern!r} (known: {known})")
        return sorted(set(patterns))


class WebhookSpec(WebhookConfig):
    """A subscription of ``project`` (``owner/name``)."""

    project: str = Field(pattern=_PROJECT)


class WebhookInfo(WebhookSpec):
    id: str
    secret: str | None = Field(
        default=None, description="whsec_...: returned once, when the subscription is created."
    )
    enabled: bool
    disabled_reason: str | None = None
    created_at: datetime
    consecutive_failures: int = Field(
        default=0, description="Failed attempts in a row on this URL (the circuit breaker)."
    )
    circuit_open_until: datetime | None = Field(
        default=None, description="Deliveries to this URL wait until then (the breaker is open)."
    )


class WebhookList(Payload):
    webhooks: list[WebhookInfo]


class ListWebhooks(Payload):
    project: str = Field(pattern=_PROJECT)


class DeleteWebhook(Payload):
    project: str = Field(pattern=_PROJECT)
    id: str = Field(pattern=_ID)


class DeliveryAttempt(Payload):
    number: int = Field(ge=1)
    at: datetime
    status_code: int | None = Field(default=None, description="None when no response came.")
    latency_ms: float
    response_excerpt: str = Field(
        default="", description=f"First {RESPONSE_EXCERPT_CHARS} characters of the response."
    )
    error: str | None = None


class DeliveryInfo(Payload):
    id: str = Field(description="The event's id (also the webhook-id header).")
    target_id: str = Field(description="The webhook subscription's or connection's id.")
    event_type: str
    status: DeliveryStatus
    attempts: list[DeliveryAttempt]
    created_at: datetime
    updated_at: datetime
    next_attempt_at: datetime | None = None


class DeliveryList(Payload):
    deliveries: list[DeliveryInfo]


class ListDeliveries(Payload):
    """The newest deliveries of a subscription, optionally of one status."""

    project: str = Field(pattern=_PROJECT)
    webhook_id: str = Field(pattern=_ID)
    status: DeliveryStatus | None = None
    limit: int = Field(default=100, ge=1, le=1000)


class ReplayWindow(Payload):
    """Which dead deliveries to send again: those created in ``[since, until)``; an unset
    bound leaves that side open."""

    since: datetime | None = Field(default=None, description="Created at or after this time.")
    until: datetime | None = Field(default=None, description="Created before this time.")

    @model_validator(mode="after")
    def _ordered(self) -> ReplayWindow:
        if self.since is not None and self.until is not None and self.since >= self.until:
            raise ValueError("since must be before until")
        return self


class ReplaySelection(ReplayWindow):
    """One delivery (``delivery_id``, whatever its status), or every dead one in the window."""

    delivery_id: str | None = Field(default=None, min_length=1, max_length=100)

    @model_validator(mode="after")
    def _one_or_window(self) -> ReplaySelection:
        if self.delivery_id is not None and (self.since or self.until):
            raise ValueError("a delivery_id replays that delivery: it takes no since or until")
        return self


class ReplayDeliveries(ReplaySelection):
    """Send one delivery of the subscription again, or every dead one (in the window)."""

    project: str = Field(pattern=_PROJECT)
    webhook_id: str = Field(pattern=_ID)


class ReplayResult(Payload):
    replayed: int = Field(description="Deliveries put back in the queue.")
