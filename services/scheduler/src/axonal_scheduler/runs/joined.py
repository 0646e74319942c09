"""Values a run reads from other runs when it starts: its ``joins`` and ``ref: runs.<uuid>``.

A join selects among the project's runs (newest :data:`~axonal_scheduler.domain.joins.MAX_RUNS`
first), reading metrics from the tracking service only when the join names one. A ``ref:
runs.<uuid>`` reads a run that must be done: until it is, the reader waits for it.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from axonal_db import Connection
from axonal_events import DONE_STATUSES
from axonal_scheduler.domain import joins
from axonal_scheduler.domain.pql import Record
from axonal_scheduler.domain.resolve import UnresolvedError, Upstream
from axonal_scheduler.runs import store
from axonal_scheduler.runs.store import Run

__all__ = ["Joined", "Metrics", "joined", "reads_others"]

#: The last value of each metric of some runs (the tracking service's ``latest``).
Metrics = Callable[[list[str]], Awaitable[Mapping[str, Mapping[str, Any]]]]


@dataclass
class Joined:
    """Join params' values, the runs that ``ref: runs.X`` reads, or the run to wait for."""

    values: dict[str, Any] = field(default_factory=dict)
    runs: dict[str, Upstream] = field(default_factory=dict)
    waiting_on: str | None = None


def _run_refs(compiled: Mapping[str, Any]) -> list[str]:
    return [
        str(d["ref"])
        for d in compiled.get("deferred") or []
        if str(d.get("ref") or "").startswith("runs.")
    ]


def reads_others(compiled: Mapping[str, Any]) -> bool:
    """Whether a run's params come from joins or other runs."""
    return bool(compiled.get("joins")) or bool(_run_refs(compiled))


async def _candidates(conn: Connection, run: Run) -> list[dict[str, Any]]:
    rows = await conn.fetch(
        "SELECT uuid, name, kind, status, tags::text AS tags, inputs::text AS inputs, "
        "outputs::text AS outputs FROM runs WHERE owner = $1 AND project = $2 "
        "AND deleted_at IS NULL AND uuid <> $3 ORDER BY created_at DESC LIMIT $4",
        run.owner,
        run.project,
        run.uuid,
        joins.MAX_RUNS,
    )
    found = []
    for row in rows:
        record = dict(row) | {k: json.loads(row[k]) for k in ("tags", "inputs", "outputs")}
        record["globals"] = {"uuid": row["uuid"], "name": row["name"], "status": row["status"]}
        found.append(record)
    return found


async def _with_metrics(records: list[dict[str, Any]], metrics: Metrics) -> None:
    for start in range(0, len(records), 1000):
        chunk = records[start : start + 1000]
        latest = await metrics([r["uuid"] for r in chunk])
        for record in chunk:
            record["metrics"] = dict(latest.get(record["uuid"]) or {})


async def joined(conn: Connection, run: Run, metrics: Metrics) -> Joined:
    """What ``run`` reads of other runs; :class:`UnresolvedError` naming what cannot be."""
    found = Joined()
    specs = [j for j in run.compiled.get("joins") or [] if isinstance(j, Mapping)]
    if specs:
        candidates = await _candidates(conn, run)
        if any(joins.needs_metrics(j) for j in specs):
            await _with_metrics(candidates, metrics)
        records: list[Record] = list(candidates)
        for spec in specs:
            try:
                found.values.update(joins.bind(spec, joins.select(spec, records)))
            except ValueError as exc:
                raise UnresolvedError(str(exc)) from None
    for ref in _run_refs(run.compiled):
        other = await store.get_run(conn, ref.removeprefix("runs."))
        if other is None:
            raise UnresolvedError(f"ref {ref}: no such run")
        if other.status not in DONE_STATUSES:
            found.waiting_on = other.uuid
            return found
        found.runs[ref] = Upstream(
            other.uuid, other.name, other.status.value, other.inputs, other.outputs
        )
    return found
