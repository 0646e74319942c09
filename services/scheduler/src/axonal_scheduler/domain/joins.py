"""``joins``: the runs a join selects, and the list params bound from them (spec §4.4).

Pure: given candidate runs as records (see :mod:`~axonal_scheduler.domain.pql`), select those
matching the query, in the join's order, after ``offset``, at most ``limit``; each join param
takes its value (``outputs.x``, ``inputs.x``, ``metrics.x``, ``globals.uuid|name|status``)
from every selected run, as a list.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from axonal_scheduler.domain import pql

__all__ = ["MAX_RUNS", "bind", "needs_metrics", "select"]

MAX_RUNS = 5000  # Polyaxon's hard cap on a join's limit


def _int(value: Any, where: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError(f"{where}: `{value}` is not a whole number") from None


def select(join: Mapping[str, Any], records: Sequence[pql.Record]) -> list[pql.Record]:
    """The records ``join`` selects; ``ValueError`` naming a bad query, sort or bound."""
    conditions = pql.parse(str(join.get("query") or ""))
    chosen = sorted((r for r in records if pql.matches(conditions, r)),
                    key=pql.sort_key(join.get("sort")))  # fmt: skip
    offset = _int(join.get("offset") or 0, "joins.offset")
    limit = _int(join.get("limit") or MAX_RUNS, "joins.limit")
    return chosen[offset : offset + min(limit, MAX_RUNS)]


def bind(join: Mapping[str, Any], selected: Sequence[pql.Record]) -> dict[str, list[Any]]:
    """Each join param's values over the selected runs."""
    bound = {}
    for name, param in (join.get("params") or {}).items():
        path = str((param or {}).get("value") or "")
        head, _, tail = path.partition(".")
        if head not in ("outputs", "inputs", "metrics", "globals") or not tail:
            raise ValueError(f"joins.params.{name}.value: `{path}` is not a value of a run")
        bound[name] = [pql.value_of(record, path) for record in selected]
    return bound


def needs_metrics(join: Mapping[str, Any]) -> bool:
    """Whether the join reads metrics (from the tracking service)."""
    named = pql.fields(str(join.get("query") or ""), join.get("sort"))
    named |= {str((p or {}).get("value") or "") for p in (join.get("params") or {}).values()}
    return any(field.startswith("metrics.") for field in named)
