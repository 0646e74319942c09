"""Compile a submitted polyaxonfile into a run (or a run failed with the compile problems).

The compiled document keeps, under ``warnings``, the fields of the file the local agent
ignores (the run's ``warnings``).
"""

from __future__ import annotations

import json
import uuid as uuidlib
from dataclasses import replace
from typing import Any

from axonal_events import RunStatus
from axonal_events.commands import SubmitRun
from axonal_scheduler.domain.env import env_names, op_env_names
from axonal_scheduler.runs.builds import builder_params, builder_uuid
from axonal_scheduler.runs.engine import Engine
from axonal_scheduler.runs.store import Run
from axonal_spec import (
    CompiledOperation,
    CompileOptions,
    Polyaxonfile,
    Resolvers,
    SpecError,
    compile_operation,
    compose,
    load,
)
from axonal_spec.hub import PrefetchedHub, compile_prefetched
from axonal_spec.support_check import ignored_fields

__all__ = ["submit"]


def _hex(run_uuid: str) -> str:
    try:
        return uuidlib.UUID(run_uuid).hex
    except ValueError:
        return run_uuid


def _early_stopping(doc_data: dict[str, Any], compiled: dict[str, Any]) -> list[dict[str, Any]]:
    matrix = doc_data.get("matrix") or {}
    found = matrix.get("earlyStopping") or compiled["run"].get("earlyStopping") or []
    return [dict(item) for item in found if isinstance(item, dict)]


def _kind(compiled: dict[str, Any]) -> str:
    """A schedule creates the runs (a matrix or the component's kind) at each slot."""
    if compiled.get("schedule"):
        return "schedule"
    return "matrix" if compiled.get("matrix") else str(compiled["run_kind"])


async def _compile(engine: Engine, doc: Polyaxonfile, options: CompileOptions) -> CompiledOperation:
    """Compile ``doc`` with its ``hubRef`` components fetched first, one fetch per reference."""

    async def attempt(hub: PrefetchedHub) -> CompiledOperation:
        return compile_operation(doc, replace(options, resolvers=Resolvers(hub=hub)))

    return await compile_prefetched(attempt, engine.components)


async def _builder(engine: Engine, cmd: SubmitRun, build: dict[str, Any]) -> dict[str, Any]:
    """The builder operation of a ``build`` section, compiled (its ``hubRef`` fetched)."""
    doc: dict[str, Any] = {
        "version": 1.1,
        "kind": "operation",
        "hubRef": build.get("hubRef"),
        "params": builder_params(build, cmd.project, _hex(cmd.run_uuid)),
    }
    if build.get("queue"):
        doc["queue"] = build["queue"]
    options = CompileOptions(
        uuid=builder_uuid(_hex(cmd.run_uuid)), project=cmd.project, owner=cmd.owner
    )
    compiled = await _compile(engine, load(json.dumps(doc)), options)
    return dict(compiled.model_dump(mode="json"))


async def submit(engine: Engine, cmd: SubmitRun) -> None:
    """Create the run of ``cmd`` once; a repeated ``run_uuid`` does nothing (the insert finds
    its row: no read first, as a repeat is rare and every submission would pay for it)."""
    base = Run(
        uuid=cmd.run_uuid,
        owner=cmd.owner,
        project=cmd.project,
        kind="job",
        status=RunStatus.CREATED,
        compiled={},
        name=cmd.name,
        queue=cmd.queue or "default",
    )
    try:
        docs = [load(text) for text in cmd.files]
        presets = [load(text) for text in cmd.presets]
        doc = compose(docs, presets=presets) if len(docs) > 1 or presets else docs[0]
        options = CompileOptions(
            params=cmd.params, uuid=_hex(cmd.run_uuid), project=cmd.project, owner=cmd.owner
        )
        operation = await _compile(engine, doc, options)
    except SpecError as exc:
        if await engine.create(base):
            await engine.set(base, RunStatus.FAILED, "CompilationError", str(exc))
        return
    compiled = operation.model_dump(mode="json")
    compiled["warnings"] = [warning.message for warning in ignored_fields(doc, operation)]
    if compiled.get("build"):
        try:
            compiled["builder"] = await _builder(engine, cmd, compiled["build"])
        except SpecError as exc:
            if await engine.create(base):
                await engine.set(base, RunStatus.FAILED, "CompilationError", f"build: {exc}")
            return
    base.compiled = compiled
    base.kind = _kind(compiled)
    base.name = cmd.name or compiled.get("name")
    base.queue = cmd.queue or compiled.get("queue") or "default"
    base.content_hash = compiled.get("content_hash")
    base.is_approved = bool(compiled.get("is_approved", True))
    base.inputs = {io["name"]: io["value"] for io in compiled.get("inputs", [])}
    base.tags = [str(tag) for tag in compiled.get("tags") or []]
    data = dict(doc.to_dict())
    base.early_stopping = _early_stopping(data, compiled)
    compiled["to_env"] = env_names(data)
    by_op = op_env_names(data)
    for op in compiled.get("operations") or []:
        op["to_env"] = by_op.get(op["name"], {})
    if await engine.create(base):
        await engine.proceed(base)
