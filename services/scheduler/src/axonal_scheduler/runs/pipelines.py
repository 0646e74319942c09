"""DAGs and matrices: children runs, trigger policies, concurrency, early stopping, status.

A flow below the engine: it moves runs through :class:`RunControl`, the four moves it needs,
which :class:`~axonal_scheduler.runs.engine.Engine` provides. The engine calls this module
when a pipeline starts, stops or has a child done; this module never imports the engine.
"""

from __future__ import annotations

import uuid as uuidlib
from datetime import datetime
from typing import Any, Protocol

from axonal_db import Connection
from axonal_events import DONE_STATUSES, RunStatus
from axonal_events.commands import AddTrials
from axonal_scheduler.domain.early_stopping import should_stop
from axonal_scheduler.domain.event_gates import (
    GateState,
    event_only_upstream,
    gates,
    state,
    watched,
)
from axonal_scheduler.domain.pipeline import is_adaptive, pipeline_status, suggested_all
from axonal_scheduler.domain.resolve import (
    UnresolvedError,
    Upstream,
    content_hash,
    resolve,
    resolve_matrix,
)
from axonal_scheduler.domain.triggers import Decision, decide
from axonal_scheduler.runs import schedule_store, store
from axonal_scheduler.runs.joined import Joined
from axonal_scheduler.runs.store import Run

__all__ = ["RunControl", "add_trials", "advance", "expand", "on_child_done", "scheduled_run"]

S = RunStatus
#: Children waiting for their upstreams and a slot (``resuming``: a resumed pipeline).
WAITING = frozenset({S.CREATED, S.RESUMING})


class RunControl(Protocol):
    """What pipelines do to runs, inside the engine's transaction."""

    @property
    def conn(self) -> Connection: ...

    async def create(self, run: Run) -> bool:
        """Record a new ``created`` run."""

    async def set(
        self,
        run: Run,
        status: RunStatus,
        reason: str | None = None,
        message: str | None = None,
        *,
        cascade: bool = True,
        force: bool = False,
    ) -> bool:
        """Change a run's status (``cascade``: a done run moves its pipeline on)."""

    async def stop(self, run: Run, reason: str = "Stopped", *, cascade: bool = True) -> None:
        """Stop a run and its children."""

    async def proceed(self, run: Run, *, cascade: bool = True, admit: bool = True) -> None:
        """Take an approved waiting run as far as it goes now."""

    async def others(self, run: Run) -> Joined:
        """What ``run`` reads of other runs (a wait is recorded when it must wait)."""


def _child_uuid(parent: str, key: str) -> str:
    return uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"axonal:{parent}:{key}").hex


def _child(parent: Run, key: str, compiled: dict[str, Any], inputs: dict[str, Any]) -> Run:
    matrix = compiled.get("matrix")
    return Run(
        uuid=_child_uuid(parent.uuid, key),
        owner=parent.owner,
        project=parent.project,
        kind="schedule"
        if compiled.get("schedule")
        else "matrix"
        if matrix
        else str(compiled["run_kind"]),
        status=S.CREATED,
        compiled=compiled,
        name=compiled.get("name") or (f"{parent.name}-{key}" if parent.name else key),
        op_name=key,
        queue=compiled.get("queue") or parent.queue,
        content_hash=compiled.get("content_hash"),
        pipeline_uuid=parent.uuid,
        is_approved=bool(compiled.get("is_approved", True)),
        inputs=inputs,
        tags=[str(tag) for tag in compiled.get("tags") or parent.tags],
    )


async def expand(engine: RunControl, parent: Run) -> None:
    """Create the children of a DAG (one per op) or a matrix (one per point), ``created``."""
    compiled = parent.compiled
    if parent.kind == "dag":
        operations = compiled.get("operations") or []
        statuses = watched(operations)  # the statuses events triggers wait on, per op
        for op in operations:
            values = {io["name"]: io["value"] for io in op.get("inputs", [])}
            watching = {**op, "watched": statuses.get(op["name"], [])}
            await engine.create(_child(parent, op["name"], watching, values))
        return
    template = {**compiled, "matrix": None}
    for index, point in enumerate((compiled.get("matrix") or {}).get("points") or []):
        values = {io["name"]: io["value"] for io in compiled.get("inputs", [])}
        child = _child(parent, str(index), template, {**values, **point})
        child.name = f"{parent.name}-{index}" if parent.name else None
        await engine.create(child)


def scheduled_run(schedule: Run, slot: datetime) -> Run:
    """The run ``schedule`` creates for ``slot``: its uuid derives from both, so a slot fired
    twice (two replicas, a retry, a backfill) is one run."""
    compiled = {**schedule.compiled, "schedule": None}
    inputs = {io["name"]: io["value"] for io in compiled.get("inputs", [])}
    child = _child(schedule, f"slot:{slot.isoformat()}", compiled, inputs)
    stamp = slot.strftime("%Y%m%d-%H%M%S")
    child.op_name = None
    child.name = f"{schedule.name}-{stamp}" if schedule.name else stamp
    return child


async def add_trials(engine: RunControl, command: AddTrials) -> None:
    """Create the trials the optimization service suggests for an adaptive sweep (each once:
    their uuids come with them), then move the sweep on; ``done`` lets it end when they have,
    ``failed`` fails it."""
    sweep = await store.lock_run(engine.conn, command.sweep_uuid)
    if (
        sweep is None
        or sweep.status in DONE_STATUSES
        or not is_adaptive(sweep.kind, sweep.compiled)
    ):
        return
    if command.failed is not None:
        await engine.set(sweep, S.FAILED, "OptimizationFailed", command.failed)
        return
    inputs = {io["name"]: io["value"] for io in sweep.compiled.get("inputs", [])}
    template = {**sweep.compiled, "matrix": None}
    for trial in command.trials:
        child = _child(sweep, str(trial.index), template, {**inputs, **trial.params})
        child.uuid = trial.uuid
        child.name = f"{sweep.name}-{trial.index}" if sweep.name else None
        await engine.create(child)
    if command.done:
        sweep.compiled = {
            **sweep.compiled,
            "matrix": {**sweep.compiled["matrix"], "suggested_all": True},
        }
        sweep.outputs = {**sweep.outputs, **command.outputs}
        await store.update_run(engine.conn, sweep)
    await advance(engine, sweep.uuid)


def _concurrency(parent: Run) -> int | None:
    if parent.kind == "matrix":
        value = (parent.compiled.get("matrix") or {}).get("concurrency")
    else:
        value = parent.compiled.get("run", {}).get("concurrency")
    return int(value) if value else None


def _upstream(parent: Run, child: Run) -> list[str]:
    return list((parent.compiled.get("upstream") or {}).get(child.op_name or "", []))


async def on_child_done(engine: RunControl, child: Run) -> None:
    """A child finished: apply early stopping, then move the pipeline on."""
    parent = await store.lock_run(engine.conn, child.pipeline_uuid or "")
    if parent is None or parent.status in DONE_STATUSES:
        return
    if parent.kind == "schedule" and child.status is S.SUCCEEDED:  # dependsOnPast waits on it
        await schedule_store.release(engine.conn, parent.uuid, child.uuid)
    if parent.early_stopping and parent.status is not S.STOPPING:
        kids = await store.children(engine.conn, parent.uuid)
        reason = should_stop(parent.early_stopping, [k.status for k in kids], child.outputs)
        if reason is not None:
            await engine.stop(parent, reason)
            return
    await advance(engine, parent.uuid)


async def advance(engine: RunControl, pipeline_uuid: str) -> None:
    """Start, skip or fail every waiting child that can move; finish the pipeline when done."""
    parent = await store.lock_run(engine.conn, pipeline_uuid)
    if parent is None or parent.status in DONE_STATUSES:
        return
    kids = await store.children(engine.conn, parent.uuid)
    while await _step(engine, parent, kids):  # each change is made on these very objects
        pass
    stopping = parent.reason if parent.status is S.STOPPING else None
    adaptive = is_adaptive(parent.kind, parent.compiled)
    if adaptive and not stopping and not suggested_all(parent.compiled):
        return  # more trials will come
    if parent.kind == "schedule":
        await _finish_schedule(engine, parent, kids, stopping)
        return
    final = pipeline_status([k.status for k in kids], stopping_reason=stopping)
    if final is not None:
        await engine.set(parent, final, parent.reason if stopping else None)


async def _finish_schedule(
    engine: RunControl, parent: Run, kids: list[Run], stopping: str | None
) -> None:
    """A schedule ends once it fires no more and its runs are done: ``succeeded`` whatever
    they did (Polyaxon's ``ScheduleFinished``), or ``stopped`` when it was stopped."""
    if not stopping and await schedule_store.is_active(engine.conn, parent.uuid):
        return
    if any(k.status not in DONE_STATUSES for k in kids):
        return
    await schedule_store.end(engine.conn, parent.uuid)
    if stopping:
        await engine.set(parent, S.STOPPED, stopping)
    else:
        await engine.set(parent, S.SUCCEEDED, "ScheduleFinished", f"{len(kids)} runs")


async def _step(engine: RunControl, parent: Run, kids: list[Run]) -> bool:
    """One pass over the waiting children; ``True`` if any of them moved."""
    by_name = {k.op_name: k for k in kids if k.op_name}
    limit = _concurrency(parent)
    active = sum(1 for k in kids if k.status not in DONE_STATUSES and k.status not in WAITING)
    for kid in sorted(kids, key=lambda k: -k.priority):  # stable: FIFO within a priority
        if kid.status not in WAITING or not kid.is_approved:
            continue
        if parent.status is S.STOPPING:
            await engine.set(kid, S.STOPPED, "Stopped", "the pipeline is stopping", cascade=False)
            return True
        names = _upstream(parent, kid)
        compiled = kid.compiled
        gated = event_only_upstream(compiled)
        upstream = [by_name[n].status for n in names if n in by_name and n not in gated]
        decision = decide(
            compiled.get("trigger"),
            upstream,
            skip_on_upstream_skip=bool(compiled.get("skip_on_upstream_skip")),
        )
        if decision is Decision.START and compiled.get("events"):
            try:
                decision = await _gates(engine.conn, kid, by_name)
            except ValueError as exc:
                await engine.set(kid, S.FAILED, "ResolutionError", str(exc), cascade=False)
                return True
        if decision is Decision.WAIT:
            continue
        if decision is not Decision.START:
            await engine.set(kid, S(decision.value), "UpstreamStatus", None, cascade=False)
            return True
        if limit is not None and active >= limit:
            return False
        if await _start(engine, parent, kid, {n: by_name[n] for n in names if n in by_name}):
            return True
    return False


async def _gates(conn: Connection, kid: Run, by_name: dict[str, Run]) -> Decision:
    """Start once every ``events`` gate is open; fail upstream when one never can."""
    found = set()
    for gate in gates(kid.compiled):
        upstream = by_name.get(gate.op)
        if upstream is None:
            raise ValueError(f"events.ref: ops.{gate.op} is not an op of the DAG")
        history = [change.status for change in await store.statuses(conn, upstream.uuid)]
        found.add(state(gate, history, upstream.status))
    if GateState.NEVER in found:
        return Decision.UPSTREAM_FAILED
    return Decision.WAIT if GateState.WAIT in found else Decision.START


async def _start(engine: RunControl, parent: Run, kid: Run, ops: dict[str, Run]) -> bool:
    """Start ``kid`` (or skip or fail it); ``False`` when it waits for a run it reads."""
    upstream = {
        name: Upstream(r.uuid, r.name, r.status.value, r.inputs, r.outputs)
        for name, r in ops.items()
    }
    if kid.kind == "matrix":
        await _start_matrix(engine, kid, upstream)
        return True
    try:
        found = await engine.others(kid)
        if found.waiting_on is not None:
            return False
        resolved = resolve(
            kid.compiled,
            {**kid.inputs, **found.values},
            {**upstream, **found.runs},
            uuid=kid.uuid,
            owner=kid.owner,
            project=kid.project,
            name=kid.name,
        )
    except UnresolvedError as exc:
        await engine.set(kid, S.FAILED, "ResolutionError", str(exc), cascade=False)
        return True
    if resolved.skip:
        await engine.set(kid, S.SKIPPED, "ConditionsNotMet", "conditions are false", cascade=False)
        return True
    if kid.compiled.get("deferred") and kid.content_hash:  # the cache key covers ref values
        kid.content_hash = content_hash(kid.content_hash, resolved.inputs)
    kid.inputs = resolved.inputs
    kid.compiled = {**kid.compiled, "run": resolved.run, "deferred": []}
    await engine.proceed(kid, cascade=False)
    return True


async def _start_matrix(engine: RunControl, kid: Run, upstream: dict[str, Upstream]) -> None:
    """A matrix op: its refs and conditions are the DAG's, resolved before its trials exist."""
    try:
        compiled = resolve_matrix(
            kid.compiled, upstream, uuid=kid.uuid, owner=kid.owner, project=kid.project,
            name=kid.name,
        )  # fmt: skip
    except UnresolvedError as exc:
        await engine.set(kid, S.FAILED, "ResolutionError", str(exc), cascade=False)
        return
    if compiled is None:
        await engine.set(kid, S.SKIPPED, "ConditionsNotMet", "conditions are false", cascade=False)
        return
    kid.compiled = compiled
    await engine.proceed(kid, cascade=False)
