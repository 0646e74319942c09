"""Merging records of one trace, observation or score into its stored state, as Langfuse does.

A state is ``{"v": values, "t": times, "first": first}``: the fields clients set (JSON values),
per field the event time (epoch microseconds) of the record that set it, and the earliest
record's event time. A field set at ``first`` has no entry in ``t``: most entities come from
one record, and their states then carry no times at all. A record's field overwrites
when its event time is not older than the stored one, so records may arrive in any order and
the newest value still wins; ``metadata`` is merged key by key the same way, ``tags`` are
unioned, and "earliest" fields (a trace's timestamp) keep their smallest value. Applying the
same records again gives the same state: a redelivered batch changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

__all__ = ["State", "Update", "merge"]

State = dict[str, Any]
#: (event time in epoch microseconds, the fields a record set, as JSON values)
Update = tuple[int, Mapping[str, Any]]
_UNTIMED = frozenset({"tags", "metadata"})  # unioned, and merged key by key


def _earlier(new: Any, old: Any) -> bool:
    return datetime.fromisoformat(str(new)) < datetime.fromisoformat(str(old))


def _apply(
    values: dict[str, Any],
    times: dict[str, int],
    at: int,
    fields: Mapping[str, Any],
    earliest: frozenset[str],
) -> None:
    for name, value in fields.items():
        if name == "tags":
            known = values.get("tags", [])
            values["tags"] = known + [tag for tag in value if tag not in known]
        elif name == "metadata" and isinstance(value, Mapping):
            merged = dict(values.get("metadata") or {})
            for key, item in value.items():
                slot = f"metadata.{key}"
                if at >= times.get(slot, -1):
                    merged[key] = item
                    times[slot] = at
            values["metadata"] = merged
        elif name in earliest:
            if name not in values or _earlier(value, values[name]):
                values[name] = value
        elif at >= times.get(name, -1):
            values[name] = value
            times[name] = at


def _all_times(
    values: Mapping[str, Any], times: Mapping[str, int], first: int, earliest: frozenset[str]
) -> dict[str, int]:
    """Every field's time: those without an entry were set at ``first``."""
    found = {name: first for name in values if name not in _UNTIMED and name not in earliest}
    found.update((f"metadata.{key}", first) for key in values.get("metadata") or ())
    found.update(times)
    return found


def merge(
    state: State | None, updates: Sequence[Update], *, earliest: frozenset[str] = frozenset()
) -> State:
    """``state`` (``None`` for a new entity) with ``updates`` applied in event-time order."""
    if state is None and len(updates) == 1:  # most entities: one record, nothing to weigh
        at, fields = updates[0]
        only = dict(fields)
        if isinstance(metadata := only.get("metadata"), dict):
            only["metadata"] = dict(metadata)
        return {"v": only, "t": {}, "first": at}
    ordered = sorted(updates, key=lambda update: update[0])
    values: dict[str, Any] = dict(state["v"]) if state else {}
    times = _all_times(values, state.get("t", {}), state["first"], earliest) if state else {}
    for at, fields in ordered:
        _apply(values, times, at, fields, earliest)
    first = min(ordered[0][0], state["first"]) if state else ordered[0][0]
    return {"v": values, "t": {k: t for k, t in times.items() if t != first}, "first": first}
