"""An op's ``build`` section: a builder run before the run itself (spec §7, V1Build).

The submission compiles the build's ``hubRef`` component (``kaniko`` by default in the
examples) with its params into ``compiled["builder"]``; ``destination`` defaults to
``<project>:<run uuid>`` as Polyaxon's does. When the run would start, its builder run is
created first (its uuid derived from the run's) and the run waits for it: once the builder
has succeeded, the run's container image is the built ``destination`` and it starts; a builder
that did not succeed fails the run (``BuildFailed``) with why.
"""

from __future__ import annotations

import uuid as uuidlib
from typing import Any

from axonal_events import DONE_STATUSES, RunStatus
from axonal_scheduler.runs import store
from axonal_scheduler.runs.pipelines import RunControl
from axonal_scheduler.runs.store import Run

__all__ = ["builder_params", "builder_uuid", "built"]

S = RunStatus


def builder_uuid(run_uuid: str) -> str:
    return uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"axonal:build:{run_uuid}").hex


def builder_params(build: dict[str, Any], project: str, run_uuid: str) -> dict[str, Any]:
    """The builder operation's params: the section's, ``destination`` defaulted."""
    params = dict(build.get("params") or {})
    params.setdefault("destination", {"value": f"{project}:{run_uuid}"})
    return params


def _builder(run: Run) -> Run:
    compiled = {**run.compiled["builder"], "builds": run.uuid}
    return Run(
        uuid=builder_uuid(run.uuid),
        owner=run.owner,
        project=run.project,
        kind=str(compiled.get("run_kind") or "job"),
        status=S.CREATED,
        compiled=compiled,
        name=f"{run.name or run.uuid[:8]}-build",
        queue=compiled.get("queue") or run.queue,
        inputs={io["name"]: io["value"] for io in compiled.get("inputs", [])},
        tags=["build"],
    )


async def built(engine: RunControl, run: Run) -> bool:
    """Whether ``run`` may start: its build succeeded (its image is now the built one).
    Else its builder is started, or still running (the run waits for it), or failed it."""
    found = await store.get_run(engine.conn, builder_uuid(run.uuid))
    if found is None:
        builder = _builder(run)
        await engine.create(builder)
        await engine.proceed(builder)
        found = builder
    if found.status not in DONE_STATUSES:
        await store.add_waiter(engine.conn, found.uuid, run.uuid)
        return False
    if found.status is not S.SUCCEEDED:
        why = f"its build {found.uuid} ended {found.status.value}: {found.message or found.reason}"
        await engine.set(run, S.FAILED, "BuildFailed", why)
        return False
    section = run.compiled["run"]
    container = {**(section.get("container") or {}), "image": found.inputs.get("destination")}
    run.compiled = {**run.compiled, "builder": None, "run": {**section, "container": container}}
    return True
