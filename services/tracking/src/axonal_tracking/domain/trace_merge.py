"""Merging records of one trace, observation or score into its stored state, as Langfuse does.

A state is ``{"v": values, "t": times}``: the fields clients set (JSON values) and, per field,
the event time (epoch microseconds) of the record that set it. A record's field overwrites
when its event time is not older than the stored one, so records may arrive in any order and
the newest value still wins; ``metadata`` is merged key by key the same way, ``tags`` are
unioned, and "earliest" fields (a trace's timestamp) keep their smallest value. Applying the
same records again gives the same state: a redelivered batch changes nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

__all__ = ["State", "Update", "merge"]

State = dict[str, Any]
#: (event time in epoch microseconds, the fields a record set, as JSON values)
Update = tuple[int, Mapping[str, Any]]


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


def merge(
    state: State | None, updates: Iterable[Update], *, earliest: frozenset[str] = frozenset()
) -> State:
    """``state`` (``None`` for a new entity) with ``updates`` applied in event-time order."""
    values: dict[str, Any] = dict((state or {}).get("v", {}))
    times: dict[str, int] = dict((state or {}).get("t", {}))
    first = (state or {}).get("first")
    for at, fields in sorted(updates, key=lambda update: update[0]):
        _apply(values, times, at, fields, earliest)
        first = at if first is None else min(first, at)
    return {"v": values, "t": times, "first": first}
