"""The ``fields`` of Langfuse's trace reads: which groups a trace is answered with.

``core`` is always sent; without ``fields`` (or naming no known group) every group is. A trace
without ``io`` has no input, output or metadata; without ``observations`` or ``scores`` those
lists are empty; without ``metrics`` its ``totalCost`` and ``latency`` are ``-1``, as Langfuse
answers them so that clients expecting the fields keep working.
"""

from __future__ import annotations

from typing import TypeVar

from axonal_api.public_bodies import LangfuseTrace, LangfuseTraceDetail

__all__ = ["TRACE_GROUPS", "shaped", "trace_groups"]

TRACE_GROUPS = ("core", "io", "scores", "observations", "metrics")
T = TypeVar("T", LangfuseTrace, LangfuseTraceDetail)


def trace_groups(fields: str | None) -> frozenset[str]:
    """The groups ``fields`` names (every group when it names none)."""
    named = {name.strip() for name in (fields or "").split(",")} & set(TRACE_GROUPS)
    return frozenset(named | {"core"}) if named else frozenset(TRACE_GROUPS)


def shaped(trace: T, groups: frozenset[str]) -> T:
    """``trace`` with the fields of the groups left out emptied or unset (every other set)."""
    fields = trace.model_dump()
    if "io" not in groups:
        for name in ("input", "output", "metadata"):
            del fields[name]
    if "observations" not in groups:
        fields["observations"] = []
    if "scores" not in groups:
        fields["scores"] = []
    if "metrics" not in groups:
        fields |= {"total_cost": -1.0, "latency": -1.0}
    return type(trace).model_validate(fields)
