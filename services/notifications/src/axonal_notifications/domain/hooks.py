"""Hooks delivered through a connection: which events ask for one, and when it cannot be."""

from __future__ import annotations

from dataclasses import dataclass

from axonal_events import CloudEvent, EventData, HookRequested

__all__ = ["HookCall", "hook_call", "refusal"]


@dataclass(frozen=True, slots=True)
class HookCall:
    """A ``hook.requested`` for the notifier ``notifier`` through ``project``'s
    connection ``connection``."""

    project: str
    connection: str
    notifier: str


def hook_call(event: CloudEvent[EventData]) -> HookCall | None:
    """The notification ``event`` asks for, or ``None`` (an operation hook, another event)."""
    data = event.data
    if not isinstance(data, HookRequested) or data.notifier is None:
        return None
    assert data.connection is not None  # a notifier hook has a connection
    return HookCall(event.project or data.project, data.connection, data.notifier)


def refusal(call: HookCall, kind: str | None, *, enabled: bool = True) -> str | None:
    """Why ``call`` cannot go through a connection of ``kind`` (``None``: no such one)."""
    if kind is None:
        return f"no connection named {call.connection!r} in {call.project}"
    if not enabled:
        return f"connection {call.connection!r} in {call.project} is disabled"
    if kind != call.notifier:
        return (
            f"connection {call.connection!r} in {call.project} is a {kind} connection, "
            f"the hook asks for {call.notifier}"
        )
    return None
