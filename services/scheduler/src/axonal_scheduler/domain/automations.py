"""Automation rules against one event: does it match, and with which params does it start.

Pure. Platform events are CloudEvents whose ``type`` carries the ``axonal.`` prefix (rules
name them without it); any other event on the bus was posted by an outside system.
"""

from __future__ import annotations

import json
import uuid as uuidlib
from dataclasses import dataclass, field
from typing import Any

from axonal_events.automations import AutomationConfig, event_path, filter_matches
from axonal_events.envelope import TYPE_PREFIX

__all__ = ["Incoming", "RuleError", "firing_run_uuid", "matches", "parse_event", "start_params"]


class RuleError(ValueError):
    """A rule cannot fire on this event (the reason is recorded with the firing)."""


@dataclass(frozen=True, slots=True)
class Incoming:
    """An event from the bus, as automation rules see it."""

    id: str
    type: str
    external: bool
    source: str
    project: str | None
    doc: dict[str, Any] = field(repr=False)

    @property
    def data(self) -> dict[str, Any]:
        data = self.doc.get("data")
        return data if isinstance(data, dict) else {}


def parse_event(raw: bytes) -> Incoming:
    """The event in ``raw`` (a CloudEvent in structured JSON); ``ValueError`` if it is not."""
    try:
        doc = json.loads(raw)
    except ValueError:
        raise ValueError("not JSON") from None
    if not isinstance(doc, dict):
        raise ValueError("not a CloudEvent: the JSON is not an object")
    missing = [key for key in ("id", "type", "source") if not isinstance(doc.get(key), str)]
    if missing:
        raise ValueError(f"not a CloudEvent: no {', '.join(missing)}")
    event_type: str = doc["type"]
    project = doc.get("project")
    return Incoming(
        id=doc["id"],
        type=event_type.removeprefix(TYPE_PREFIX),
        external=not event_type.startswith(TYPE_PREFIX),
        source=doc["source"],
        project=project if isinstance(project, str) else None,
        doc=doc,
    )


def matches(rule: AutomationConfig, event: Incoming) -> bool:
    """Whether ``rule`` fires on ``event`` (its type, origin, source and ``where`` values)."""
    if not rule.enabled or rule.external != event.external:
        return False
    if not filter_matches(rule.event, event.type):
        return False
    if rule.source is not None and rule.source != event.source:
        return False
    for path, expected in rule.where.items():
        try:
            if event_path(event.doc, path) != expected:
                return False
        except KeyError:
            return False
    return True


def start_params(rule: AutomationConfig, event: Incoming) -> dict[str, Any]:
    """The params a start rule gives its run; :class:`RuleError` when the event lacks one."""
    params = dict(rule.params)
    for name, path in rule.params_from.items():
        try:
            params[name] = event_path(event.doc, path)
        except KeyError as exc:
            raise RuleError(f"param {name}: {exc.args[0]}") from None
    return params


def firing_run_uuid(rule_id: str, event_id: str) -> str:
    """The run a rule starts for an event: the same uuid when the event comes again."""
    return uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"axonal:automation:{rule_id}:{event_id}").hex
