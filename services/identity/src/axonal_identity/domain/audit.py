"""Which events the audit trail keeps."""

from __future__ import annotations

__all__ = ["is_audited"]

#: Liveness noise, not facts about the platform's objects: every agent sends one every few seconds.
_NOT_AUDITED = frozenset({"axonal.agent.heartbeat"})


def is_audited(event_type: str) -> bool:
    return event_type not in _NOT_AUDITED
