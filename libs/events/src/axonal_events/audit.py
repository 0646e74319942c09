"""RPC payloads of the audit trail (identity service): who did what, to which object, when,
from where."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from pydantic import Field

from axonal_events.base import Payload

__all__ = ["AuditEntry", "AuditPage", "ListAuditRequest"]


class ListAuditRequest(Payload):
    """An organization's entries, newest first; every filter is optional."""

    org: str = Field(min_length=1, max_length=64)
    project: str | None = Field(default=None, max_length=64, description="A project's name.")
    actor: str | None = Field(default=None, max_length=200)
    type: str | None = Field(default=None, max_length=200, description="e.g. api.write_audited")
    since: datetime | None = None
    until: datetime | None = None
    limit: int = Field(default=50, ge=1, le=500)
    cursor: str | None = Field(default=None, max_length=200, description="``next_cursor``.")


class AuditEntry(Payload):
    event_id: str
    type: str
    occurred_at: datetime
    actor: str = Field(description="The api's caller, else the service that published it.")
    source: str
    project: str | None = None
    subject: str | None = None
    data: dict[str, Any]


class AuditPage(Payload):
    entries: list[AuditEntry]
    next_cursor: str | None = None
