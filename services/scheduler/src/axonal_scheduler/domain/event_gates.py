"""DAG ``events`` triggers (spec §4.3): an op that waits for an upstream op to reach a status.

``events: [{kinds: [run_status_running], ref: ops.train}]`` starts the op once ``train`` has
been ``running``, not once it is done. Each trigger is a gate: it opens when the referenced op
has reached one of its kinds (``run_status_done``: any final status), and can no longer open
when that op ended without reaching it. An op's trigger policy applies to its other upstreams
(``dependencies`` and ``ref`` params) only. The ``run_status_*`` kinds are the ones run here
(as in Polyaxon CE); other kinds and ``ref: runs.<uuid>`` are refused with why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from axonal_events import DONE_STATUSES, RunStatus

__all__ = ["Gate", "GateState", "event_only_upstream", "gates", "state", "watched"]

_PREFIX = "run_status_"


@dataclass(frozen=True)
class Gate:
    """One trigger: the op it watches and the statuses that open it."""

    op: str
    statuses: frozenset[RunStatus]


class GateState:
    OPEN = "open"
    WAIT = "wait"
    NEVER = "never"


def _statuses(kind: str) -> frozenset[RunStatus]:
    if not kind.startswith(_PREFIX):
        raise ValueError(f"events.kinds: `{kind}` is not run here; use a run_status_* kind")
    name = kind.removeprefix(_PREFIX)
    if name == "done":
        return frozenset(DONE_STATUSES)
    try:
        return frozenset({RunStatus(name)})
    except ValueError:
        raise ValueError(f"events.kinds: `{kind}` names no run status") from None


def gates(op: Mapping[str, Any]) -> list[Gate]:
    """The gates of a compiled op; ``ValueError`` naming what cannot be run."""
    found = []
    for trigger in op.get("events") or []:
        ref = str(trigger.get("ref") or "")
        if not ref.startswith("ops."):
            raise ValueError(f"events.ref: `{ref}` is not watched; name an op of the DAG (ops.X)")
        statuses = frozenset().union(*(_statuses(str(k)) for k in trigger.get("kinds") or []))
        if not statuses:
            raise ValueError("events.kinds: a trigger needs at least one kind")
        found.append(Gate(ref.removeprefix("ops."), statuses))
    return found


def event_only_upstream(op: Mapping[str, Any]) -> set[str]:
    """The upstream ops this op waits for through ``events`` alone."""
    others = set(op.get("dependencies") or [])
    others |= {
        str(d["ref"]).removeprefix("ops.")
        for d in op.get("deferred") or []
        if str(d.get("ref") or "").startswith("ops.")
    }
    watched_ops = {
        str(t.get("ref")).removeprefix("ops.") for t in op.get("events") or [] if t.get("ref")
    }
    return watched_ops - others


def state(gate: Gate, reached: Iterable[RunStatus], current: RunStatus) -> str:
    """Whether ``gate`` is open given the statuses its op has reached and its current one."""
    if gate.statuses & {*reached, current}:
        return GateState.OPEN
    return GateState.NEVER if current in DONE_STATUSES else GateState.WAIT


def watched(operations: Iterable[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Per op, the statuses other ops' gates wait for on it, besides the final ones (a final
    status moves the DAG on anyway); an op that cannot be run is left to fail when it starts."""
    found: dict[str, set[str]] = {}
    for op in operations:
        try:
            for gate in gates(op):
                found.setdefault(gate.op, set()).update(
                    s.value for s in gate.statuses - DONE_STATUSES
                )
        except ValueError:
            continue
    return {name: sorted(values) for name, values in found.items() if values}
