"""What a notification says, and its body for each kind of connection.

:func:`notice` reads a CloudEvent (``run.*``, ``run.done``, ``metric.crossed``,
``hook.requested``, or any other type generically) into one sentence, a severity and a few
facts; the renderers turn that into a Slack, Discord, Mattermost or Microsoft Teams
message, a PagerDuty Events API v2 event, or an email's subject and plain text body.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from axonal_events import CloudEvent, EventData, HookRequested, MetricCrossed
from axonal_notifications.domain.alerts import alert_key

__all__ = [
    "JSON_RENDERERS",
    "Notice",
    "Severity",
    "discord",
    "email",
    "http_body",
    "mattermost",
    "notice",
    "pagerduty",
    "slack",
    "teams",
]

_VALUE_CHARS = 500
_FAILED = frozenset({"failed", "upstream_failed", "unschedulable"})
_WARNING = frozenset({"stopped", "warning", "skipped", "retrying"})


class Severity(StrEnum):
    """PagerDuty's severities; the other kinds show them as a colour."""

    CRITICAL = "critical"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


_COLOURS = {
    Severity.CRITICAL: "#b71c1c",
    Severity.ERROR: "#d32f2f",
    Severity.WARNING: "#f9a825",
    Severity.INFO: "#2e7d32",
}
_TEAMS_COLOURS = {
    Severity.CRITICAL: "Attention",
    Severity.ERROR: "Attention",
    Severity.WARNING: "Warning",
    Severity.INFO: "Good",
}


@dataclass(frozen=True, slots=True)
class Notice:
    """One event, told: a sentence, a severity and facts (label, value)."""

    title: str
    severity: Severity
    project: str
    facts: tuple[tuple[str, str], ...]
    event_type: str
    event_id: str
    at: datetime
    key: str

    @property
    def colour(self) -> str:
        return _COLOURS[self.severity]


def _clip(text: str, limit: int = _VALUE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _compact(values: dict[str, object]) -> str:
    return _clip(json.dumps(values, separators=(", ", ": "), sort_keys=True, default=str))


def _run(name: str | None, run_uuid: str) -> str:
    return f"{name} ({run_uuid})" if name else run_uuid


def _status_severity(status: str) -> Severity:
    if status in _FAILED:
        return Severity.ERROR
    return Severity.WARNING if status in _WARNING else Severity.INFO


def _run_notice(data: Any, status: str) -> tuple[str, Severity, list[tuple[str, str]]]:
    run = _run(getattr(data, "name", None), data.run_uuid)
    why = getattr(data, "reason", None), getattr(data, "message", None)
    detail = ": " + " - ".join(w for w in why if w) if any(why) else ""
    title = f"run {run} in {data.project} {status.replace('_', ' ')}{detail}"
    facts = [("Project", data.project), ("Run", run), ("Status", status)]
    if getattr(data, "kind", None):
        facts.append(("Kind", str(data.kind)))
    facts += [(label, str(w)) for label, w in zip(("Reason", "Message"), why, strict=True) if w]
    return title, _status_severity(status), facts


def _metric_notice(data: MetricCrossed) -> tuple[str, Severity, list[tuple[str, str]]]:
    step = f" at step {data.step}" if data.step is not None else ""
    where = f"on run {data.run_uuid} in {data.project}{step}"
    if data.threshold is None:  # is_nan, is_inf: the value is the news
        rule = data.comparison.value
        title = f"metric {data.metric} is {data.value:g} {where}"
    else:
        rule = f"{data.comparison.value} {data.threshold:g}"
        crossed = f"crossed {data.threshold:g} ({data.comparison.value})"
        title = f"metric {data.metric} {crossed} {where}: {data.value:g}"
    facts = [
        ("Project", data.project),
        ("Run", data.run_uuid),
        ("Metric", data.metric),
        ("Value", f"{data.value:g}"),
        ("Threshold", rule),
    ]
    if data.step is not None:
        facts.append(("Step", str(data.step)))
    return title, Severity.WARNING, facts


def notice(event: CloudEvent[EventData]) -> Notice:
    """What ``event`` says, in words."""
    data = event.data
    project = event.project or str(getattr(data, "project", "") or "")
    if isinstance(data, MetricCrossed):
        title, severity, facts = _metric_notice(data)
    elif isinstance(data, HookRequested):
        title, severity, facts = _run_notice(data, data.status)
        facts += [("Hook", data.hub_ref), ("Trigger", data.trigger)]
        facts += [
            (k, _compact(v)) for k, v in (("Inputs", data.inputs), ("Outputs", data.outputs)) if v
        ]
    elif hasattr(data, "run_uuid") and hasattr(data, "status"):
        title, severity, facts = _run_notice(data, str(getattr(data.status, "value", data.status)))
    else:
        about = f" ({event.subject})" if event.subject else ""
        title = f"{event.event_type}{about} in {project or 'no project'}"
        severity, facts = Severity.INFO, [("Project", project)] if project else []
    facts.append(("Event", f"{event.event_type} {event.id}"))
    return Notice(
        _clip(title, 1000), severity, project, tuple((k, _clip(v)) for k, v in facts),
        event.event_type, event.id, event.time, alert_key(event),
    )  # fmt: skip


def _slack_escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack(n: Notice) -> dict[str, Any]:
    """Slack: ``text`` (the notification's fallback) and Block Kit ``blocks``."""
    fields = [{"type": "mrkdwn", "text": f"*{k}*\n{_slack_escape(v)}"} for k, v in n.facts[:10]]
    return {
        "text": _slack_escape(n.title),
        "blocks": [
            {"type": "section", "text": {"type": "mrkdwn", "text": _slack_escape(n.title)}},
            {"type": "section", "fields": fields},
            {
                "type": "context",
                "elements": [{"type": "mrkdwn", "text": f"Axonal · {n.severity.value}"}],
            },
        ],
    }


def discord(n: Notice) -> dict[str, Any]:
    """Discord: ``content`` and one embed; mentions in the text never ping anyone."""
    return {
        "content": _clip(n.title, 2000),
        "embeds": [
            {
                "title": _clip(n.title, 256),
                "color": int(n.colour.removeprefix("#"), 16),
                "fields": [{"name": k, "value": v, "inline": True} for k, v in n.facts[:25]],
                "timestamp": n.at.isoformat(),
                "footer": {"text": "Axonal"},
            }
        ],
        "allowed_mentions": {"parse": []},
    }


def mattermost(n: Notice) -> dict[str, Any]:
    """Mattermost: ``text`` and a (Slack-compatible) attachment with the facts."""
    return {
        "text": n.title,
        "attachments": [
            {
                "fallback": n.title,
                "color": n.colour,
                "fields": [{"short": True, "title": k, "value": v} for k, v in n.facts],
                "footer": "Axonal",
            }
        ],
    }


def teams(n: Notice) -> dict[str, Any]:
    """Microsoft Teams: an Adaptive Card in a ``message`` (incoming webhooks and Workflows)."""
    card = {
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "type": "AdaptiveCard",
        "version": "1.4",
        "body": [
            {
                "type": "TextBlock",
                "text": n.title,
                "weight": "Bolder",
                "wrap": True,
                "color": _TEAMS_COLOURS[n.severity],
            },
            {"type": "FactSet", "facts": [{"title": k, "value": v} for k, v in n.facts]},
        ],
    }
    attachment = {"contentType": "application/vnd.microsoft.card.adaptive", "content": card}
    return {"type": "message", "attachments": [attachment]}


def pagerduty(n: Notice, routing_key: str) -> dict[str, Any]:
    """A PagerDuty Events API v2 ``trigger``; the alert's key de-duplicates incidents."""
    return {
        "routing_key": routing_key,
        "event_action": "trigger",
        "dedup_key": _clip(f"axonal/{n.project}/{n.key}", 255),
        "client": "Axonal",
        "payload": {
            "summary": _clip(n.title, 1024),
            "severity": n.severity.value,
            "source": f"axonal/{n.project}" if n.project else "axonal",
            "timestamp": n.at.isoformat(),
            "class": n.event_type,
            "group": n.project or None,
            "custom_details": dict(n.facts),
        },
    }


def email(n: Notice) -> tuple[str, str]:
    """An email's subject (one line) and plain text body."""
    subject = _clip(" ".join(f"[Axonal] {n.title}".split()), 200)
    lines = [n.title, "", *(f"{k}: {v}" for k, v in n.facts), f"Time: {n.at.isoformat()}"]
    return subject, "\n".join(lines) + "\n"


#: The JSON body of each chat kind.
JSON_RENDERERS: dict[str, Callable[[Notice], dict[str, Any]]] = {
    "slack": slack,
    "discord": discord,
    "mattermost": mattermost,
    "teams": teams,
}


def http_body(kind: str, event: CloudEvent[EventData], settings: Mapping[str, Any]) -> bytes:
    """The JSON body a connection of ``kind`` (not ``webhook`` or ``email``) POSTs."""
    told = notice(event)
    if kind == "pagerduty":
        doc = pagerduty(told, str(settings["routing_key"]))
    else:
        doc = JSON_RENDERERS[kind](told)
    return json.dumps(doc, separators=(",", ":")).encode()
