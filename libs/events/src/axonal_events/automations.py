"""Automation rules of a project and their firings (RPCs of the scheduler).

A rule reacts to events on the bus. ``start``: when an event matching the rule arrives, start
an operation (a ``hubRef`` or a polyaxonfile) with params given as values or read from the
event (``params_from: {dataset: data.uri}``). ``restart``: when a run of the project fails,
restart it once (the restarted copy is never restarted again by the same rule).

A rule watches platform events (``run.failed``, ``run.*``: checked against the catalog, so a
filter that names no event type is an error) or, with ``external``, the events outside
systems post (their own types, optionally from one ``source``). Every firing is recorded,
whether it started a run or failed (with the reason).
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field, field_validator, model_validator

from axonal_events.base import Payload
from axonal_events.envelope import TYPE_PREFIX
from axonal_events.webhooks import filter_matches, matching_event_types

__all__ = [
    "AutomationAction",
    "AutomationConfig",
    "AutomationInfo",
    "AutomationList",
    "AutomationSpec",
    "DeleteAutomation",
    "FiringInfo",
    "FiringList",
    "FiringOutcome",
    "ListAutomations",
    "ListFirings",
    "event_path",
    "filter_matches",
]

_PROJECT = r"^[^/\s]+/[^/\s]+$"
_ID = r"^[0-9a-f]{32}$"
_PATH = re.compile(r"^(data|source|type|subject|id)(\.[A-Za-z0-9_-]+)*$")
_MISSING = object()


class AutomationAction(StrEnum):
    START = "start"
    RESTART = "restart"


class FiringOutcome(StrEnum):
    STARTED = "started"
    RESTARTED = "restarted"
    SKIPPED = "skipped"
    FAILED = "failed"


def event_path(doc: dict[str, Any], path: str) -> Any:
    """The value at a dotted ``path`` (``data.uri``) of a CloudEvent document.

    Raises ``KeyError`` naming the path when the event does not have it.
    """
    value: Any = doc
    for part in path.split("."):
        value = value.get(part, _MISSING) if isinstance(value, dict) else _MISSING
        if value is _MISSING:
            raise KeyError(f"the event has no {path}")
    return value


class AutomationConfig(Payload):
    """What a rule watches and what it does."""

    name: str = Field(pattern=r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$")
    action: AutomationAction = AutomationAction.START
    event: str = Field(
        default="run.failed",
        min_length=1,
        max_length=256,
        description="Event type or wildcard pattern (run.failed, run.*, dataset.updated).",
    )
    external: bool = Field(
        default=False, description="Watch events posted by outside systems, not the platform's."
    )
    source: str | None = Field(
        default=None, max_length=1024, description="Only external events from this source."
    )
    where: dict[str, Any] = Field(
        default_factory=dict,
        max_length=20,
        description="Only events whose values at these paths equal these (data.kind: job).",
    )
    hub_ref: str | None = Field(default=None, max_length=300, description="Component to start.")
    polyaxonfile: str | None = Field(
        default=None, max_length=200_000, description="Polyaxonfile text to start."
    )
    params: dict[str, Any] = Field(default_factory=dict, description="Param values.")
    params_from: dict[str, str] = Field(
        default_factory=dict, description="Params read from the event: name -> data.path."
    )
    queue: str | None = Field(default=None, max_length=200)
    enabled: bool = True

    @field_validator("where", "params_from")
    @classmethod
    def _paths(cls, value: dict[str, Any], info: Any) -> dict[str, Any]:
        paths = value.keys() if info.field_name == "where" else value.values()
        for path in paths:
            if not _PATH.match(str(path)):
                raise ValueError(
                    f"{path!r} is not an event path (data.<key>..., source, type, subject, id)"
                )
        return value

    @model_validator(mode="after")
    def _consistent(self) -> AutomationConfig:
        if self.external:
            if self.event.startswith(TYPE_PREFIX):
                raise ValueError(f"external event types never start with {TYPE_PREFIX!r}")
        elif not matching_event_types(self.event):
            raise ValueError(
                f"event {self.event!r} matches no platform event type "
                "(set external for events outside systems post)"
            )
        elif self.source is not None:
            raise ValueError("source filters external events only (set external)")
        if self.action is AutomationAction.START:
            if (self.hub_ref is None) == (self.polyaxonfile is None):
                raise ValueError("a start rule names exactly one of hub_ref and polyaxonfile")
        else:
            if self.external or not filter_matches(self.event, "run.failed"):
                raise ValueError("a restart rule watches run.failed")
            if self.hub_ref or self.polyaxonfile or self.params or self.params_from:
                raise ValueError("a restart rule starts nothing new: no hub_ref or params")
        return self


class AutomationSpec(AutomationConfig):
    """A rule of ``project`` (``owner/name``)."""

    project: str = Field(pattern=_PROJECT)


class AutomationInfo(AutomationSpec):
    id: str
    created_at: datetime
    firings: int = Field(default=0, description="Times the rule fired.")


class AutomationList(Payload):
    automations: list[AutomationInfo]


class ListAutomations(Payload):
    project: str = Field(pattern=_PROJECT)


class DeleteAutomation(Payload):
    project: str = Field(pattern=_PROJECT)
    id: str = Field(pattern=_ID)


class FiringInfo(Payload):
    automation_id: str
    event_id: str
    event_type: str
    at: datetime
    outcome: FiringOutcome
    run_uuid: str | None = Field(default=None, description="The run started or restarted.")
    detail: str | None = Field(default=None, description="Why it was skipped or failed.")


class FiringList(Payload):
    firings: list[FiringInfo]


class ListFirings(Payload):
    project: str = Field(pattern=_PROJECT)
    id: str = Field(pattern=_ID)
    limit: int = Field(default=100, ge=1, le=1000)
