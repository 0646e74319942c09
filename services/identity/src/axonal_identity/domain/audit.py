"""Which events the audit trail keeps."""

from __future__ import annotations

__all__ = ["is_audited"]

#: Liveness noise and telemetry, not facts about the platform's objects: every agent sends a
#: heartbeat every few seconds, every ingested LLM trace a ``trace.ingested``.
_NOT_AUDITED = frozenset({"axonal.agent.heartbeat", "axonal.trace.ingested"})


def is_audited(event_type: str) -> bool:
    return event_type not in _NOT_AUDITED
