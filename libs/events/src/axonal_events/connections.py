"""Connections and alert routes of a project (RPCs of the notifications service).

A connection is a named notifier target: a generic ``webhook`` (the signed CloudEvent, as a
webhook subscription sends it), a chat incoming webhook (``slack``, ``discord``,
``mattermost``, ``teams``), PagerDuty (Events API v2) or ``email`` (SMTP). Hooks name a
connection (``connection: <name>``); alert routes send the events they match to one.
Secrets (chat webhook URLs, SMTP passwords, routing keys) are stored but every reply carries
them masked; a ``webhook`` connection's signing secret is returned once, at creation.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload
from axonal_events.catalog import CATALOG
from axonal_events.webhooks import DeliveryStatus, ReplaySelection, matching_event_types

__all__ = [
    "PAGERDUTY_EVENTS_URL",
    "AlertRouteConfig",
    "AlertRouteInfo",
    "AlertRouteList",
    "AlertRouteSpec",
    "ConnectionConfig",
    "ConnectionDeliveries",
    "ConnectionInfo",
    "ConnectionKind",
    "ConnectionList",
    "ConnectionRef",
    "ConnectionSpec",
    "DeleteAlertRoute",
    "ListAlertRoutes",
    "ListConnections",
    "ReplayConnection",
    "SmtpConfig",
    "SmtpSecurity",
    "known_event_patterns",
]

PAGERDUTY_EVENTS_URL = "https://events.pagerduty.com/v2/enqueue"
_PROJECT = r"^[^/\s]+/[^/\s]+$"
_ID = r"^[0-9a-f]{32}$"
_NAME = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
_EMAIL = r"^[^@\s<>]+@[^@\s<>]+$"


class ConnectionKind(StrEnum):
    """How a connection delivers (the notifier names hooks use as ``hub_ref``)."""

    WEBHOOK = "webhook"
    SLACK = "slack"
    DISCORD = "discord"
    MATTERMOST = "mattermost"
    TEAMS = "teams"
    PAGERDUTY = "pagerduty"
    EMAIL = "email"


class SmtpSecurity(StrEnum):
    """``starttls`` (upgrade a plain connection, port 587), ``tls`` (implicit, port 465) or
    ``none`` (plain text, for local relays only)."""

    STARTTLS = "starttls"
    TLS = "tls"
    NONE = "none"


class SmtpConfig(Payload):
    """An SMTP server and the message's envelope."""

    host: str = Field(min_length=1, max_length=253)
    port: int = Field(default=587, ge=1, le=65535)
    username: str | None = Field(default=None, max_length=500)
    password: str | None = Field(default=None, max_length=500, description="Masked in replies.")
    security: SmtpSecurity = SmtpSecurity.STARTTLS
    sender: str = Field(pattern=_EMAIL, max_length=320, description="The From address.")
    to: list[str] = Field(min_length=1, max_length=50, description="Recipient addresses.")

    @field_validator("to")
    @classmethod
    def _addresses(cls, values: list[str]) -> list[str]:
        bad = [v for v in values if "@" not in v or any(c.isspace() or c in "<>," for c in v)]
        if bad:
            raise ValueError(f"not an email address: {', '.join(bad)}")
        return values


def _http_url(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.hostname:
        raise ValueError("url must be an absolute http:// or https:// URL")
    if parts.username or parts.password:
        raise ValueError("url must not carry credentials")
    return value


class ConnectionConfig(Payload):
    """A named target; which fields it needs depends on ``kind``.

    ``email`` needs ``smtp``; ``pagerduty`` needs ``routing_key`` (``url`` defaults to the
    Events API v2 endpoint); every other kind needs ``url``, its incoming webhook.
    """

    name: str = Field(pattern=_NAME, description="Unique in the project; hooks refer to it.")
    kind: ConnectionKind
    url: str | None = Field(default=None, max_length=2000, description="Masked in replies.")
    routing_key: str | None = Field(
        default=None, min_length=1, max_length=200, description="PagerDuty integration key."
    )
    smtp: SmtpConfig | None = None
    description: str = Field(default="", max_length=500)

    @model_validator(mode="before")
    @classmethod
    def _pagerduty_url(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("kind") == "pagerduty" and not data.get("url"):
            return data | {"url": PAGERDUTY_EVENTS_URL}
        return data

    @field_validator("url")
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        return None if value is None else _http_url(value)

    @model_validator(mode="after")
    def _fields_of_kind(self) -> ConnectionConfig:
        kind = self.kind.value
        if self.kind is ConnectionKind.EMAIL:
            if self.smtp is None:
                raise ValueError("an email connection needs smtp (host, sender, to)")
            if self.url is not None or self.routing_key is not None:
                raise ValueError("an email connection takes smtp only, no url or routing_key")
            return self
        if self.smtp is not None:
            raise ValueError(f"a {kind} connection takes no smtp settings")
        if self.url is None:
            raise ValueError(f"a {kind} connection needs url (its incoming webhook)")
        if (self.kind is ConnectionKind.PAGERDUTY) != (self.routing_key is not None):
            raise ValueError(
                "a pagerduty connection needs routing_key"
                if self.kind is ConnectionKind.PAGERDUTY
                else f"a {kind} connection takes no routing_key"
            )
        return self


class ConnectionSpec(ConnectionConfig):
    """A connection of ``project`` (``owner/name``)."""

    project: str = Field(pattern=_PROJECT)


class ConnectionInfo(Payload):
    """A stored connection, its secrets masked."""

    id: str
    project: str
    name: str
    kind: ConnectionKind
    url: str | None = Field(default=None, description="Scheme and host only.")
    routing_key: str | None = Field(default=None, description="Its last characters only.")
    smtp: SmtpConfig | None = Field(default=None, description="The password masked.")
    description: str = ""
    secret: str | None = Field(
        default=None, description="whsec_... of a webhook connection: returned once, at creation."
    )
    enabled: bool
    disabled_reason: str | None = None
    created_at: datetime
    consecutive_failures: int = Field(default=0, description="Failed attempts in a row.")
    circuit_open_until: datetime | None = None


class ConnectionList(Payload):
    connections: list[ConnectionInfo]


class ListConnections(Payload):
    project: str = Field(pattern=_PROJECT)


class ConnectionRef(Payload):
    """One connection of a project, by name (get, delete)."""

    project: str = Field(pattern=_PROJECT)
    name: str = Field(pattern=_NAME)


class ConnectionDeliveries(ConnectionRef):
    """The newest deliveries through a connection (a ``DeliveryList``)."""

    status: DeliveryStatus | None = None
    limit: int = Field(default=100, ge=1, le=1000)


class ReplayConnection(ConnectionRef, ReplaySelection):
    """Send one delivery through the connection again, or every dead one (in the window)."""


def known_event_patterns(patterns: list[str]) -> list[str]:
    """``patterns`` sorted and deduplicated; raises ``ValueError`` for one that selects no
    event type of the catalog."""
    for pattern in patterns:
        if matching_event_types(pattern):
            continue
        if "*" in pattern:
            raise ValueError(f"event filter {pattern!r} matches no event type")
        known = ", ".join(sorted({e.event_type for e in CATALOG}))
        raise ValueError(f"unknown event type {pattern!r} (known: {known})")
    return sorted(set(patterns))


class AlertRouteConfig(Payload):
    """Events of the project matching ``events`` (and the optional attribute filters) go to
    ``connection``; the same alert within ``dedup_seconds`` is delivered once."""

    connection: str = Field(pattern=_NAME, description="The connection's name.")
    events: list[str] = Field(
        min_length=1, max_length=50, description="Event types or wildcards: metric.crossed, run.*."
    )
    kinds: list[str] = Field(default_factory=list, max_length=20)
    statuses: list[str] = Field(default_factory=list, max_length=20)
    tags: list[str] = Field(default_factory=list, max_length=20)
    dedup_seconds: int = Field(
        default=300,
        ge=0,
        le=7 * 24 * 3600,
        description="The same alert (route, run, event type, rule) within this many seconds of "
        "the one delivered, by event time, is suppressed.",
    )
    description: str = Field(default="", max_length=500)

    @field_validator("events")
    @classmethod
    def _known_events(cls, patterns: list[str]) -> list[str]:
        return known_event_patterns(patterns)


class AlertRouteSpec(AlertRouteConfig):
    project: str = Field(pattern=_PROJECT)


class AlertRouteInfo(AlertRouteSpec):
    id: str
    created_at: datetime
    suppressed: int = Field(default=0, description="Repeats suppressed so far.")


class AlertRouteList(Payload):
    routes: list[AlertRouteInfo]


class ListAlertRoutes(Payload):
    project: str = Field(pattern=_PROJECT)


class DeleteAlertRoute(Payload):
    project: str = Field(pattern=_PROJECT)
    id: str = Field(pattern=_ID)
