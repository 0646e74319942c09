"""Which events the audit trail keeps."""

from __future__ import annotations

__all__ = ["DELETION_RECORDS", "NOT_AUDITED", "is_audited"]

#: Liveness noise and telemetry, not facts about the platform's objects: every agent sends a
#: heartbeat every few seconds, every ingested LLM trace a ``trace.ingested``.
NOT_AUDITED = ("agent.heartbeat", "trace.ingested")
#: What a deleted project leaves in the audit trail: that it was deleted, and by whom confirmed
#: (ids only, none of its data).
DELETION_RECORDS = ("axonal.project.deleted", "axonal.deletion.completed")
_NOT_AUDITED = frozenset(f"axonal.{name}" for name in NOT_AUDITED)


def is_audited(event_type: str) -> bool:
    return event_type not in _NOT_AUDITED
