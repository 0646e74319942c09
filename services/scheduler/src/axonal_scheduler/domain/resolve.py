"""Resolve a child run's late values: ``ref: ops.X`` params, matrix points, conditions.

Pure: it reads the compiled operation and its upstreams' stored values, and renders the
templates the compiler kept with :mod:`axonal_spec` (a sandbox, no I/O).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from axonal_spec import SpecError
from axonal_spec.context import ParamInfo, build_context, build_globals
from axonal_spec.rendering import render_available
from axonal_spec.service_values import service_ports
from axonal_spec.templates import render

__all__ = ["Resolved", "UnresolvedError", "Upstream", "resolve", "resolve_matrix"]


class UnresolvedError(ValueError):
    """A late value cannot be found or a template cannot be rendered."""


@dataclass(frozen=True, slots=True)
class Upstream:
    """What a ``ref: ops.X`` may read of op X."""

    uuid: str
    name: str | None
    status: str
    inputs: Mapping[str, Any]
    outputs: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Resolved:
    """The run to execute with its input values; ``skip`` when ``conditions`` is falsy."""

    run: dict[str, Any]
    inputs: dict[str, Any]
    skip: bool


def _read(ref: str, path: str | None, ops: Mapping[str, Upstream]) -> Any:
    """``ref: ops.X`` reads op X of the DAG; ``ref: runs.<uuid>`` the run given under that key."""
    op_name = ref.removeprefix("ops.")
    upstream = ops.get(op_name)
    if upstream is None and ref.startswith("runs."):
        raise UnresolvedError(f"ref {ref}: the run was not read")
    if upstream is None:
        raise UnresolvedError(f"ref {ref}: no op named {op_name!r} ran in this DAG")
    section, _, key = (path or "").partition(".")
    sources: dict[str, Mapping[str, Any]] = {
        "outputs": upstream.outputs,
        "inputs": upstream.inputs,
        "globals": {"uuid": upstream.uuid, "name": upstream.name, "status": upstream.status},
    }
    values = sources.get(section)
    if values is None or key not in values:
        raise UnresolvedError(f"ref {ref}: {op_name} has no value {path!r}")
    return values[key]


def _falsy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() in ("", "false", "0", "none", "no")
    return not value


def _ref_values(compiled: Mapping[str, Any], ops: Mapping[str, Upstream]) -> dict[str, Any]:
    """The values of the ``ref: ops.X`` and ``ref: runs.<uuid>`` params, read from ``ops``."""
    values = {}
    for deferred in compiled.get("deferred", []):
        ref = deferred.get("ref")
        if deferred.get("source") == "ref" and ref and str(ref).startswith(("ops.", "runs.")):
            values[deferred["name"]] = _read(str(ref), deferred.get("value"), ops)
    return values


def _context(
    compiled: Mapping[str, Any], resolved: Mapping[str, Any], run_globals: dict[str, Any]
) -> dict[str, Any]:
    declared = {io["name"] for io in [*compiled.get("inputs", []), *compiled.get("outputs", [])]}

    def infos(section: str) -> list[ParamInfo]:
        return [
            ParamInfo(io["name"], resolved.get(io["name"], io.get("value")), io.get("type"))
            for io in compiled.get(section, [])
        ]

    # The compiled context params are defaults (a ref's is None): resolved values win.
    extra = dict(compiled.get("context_params") or {})
    extra.update({k: v for k, v in resolved.items() if k not in declared})
    return build_context(
        run_globals=run_globals,
        inputs=infos("inputs"),
        outputs=infos("outputs"),
        context_params=[ParamInfo(k, v, context_only=True) for k, v in extra.items()],
    )


def resolve_matrix(
    compiled: Mapping[str, Any],
    ops: Mapping[str, Upstream],
    *,
    uuid: str,
    owner: str,
    project: str,
    name: str | None,
) -> dict[str, Any] | None:
    """A matrix op of a DAG, before its trials exist (they cannot see the DAG's ops): its
    ``ref: ops.X`` values and ``conditions``. ``None`` when the conditions are falsy, else the
    compiled op with the ref values filled in (inputs, context params) for every trial."""
    refs = _ref_values(compiled, ops)
    conditions = compiled.get("conditions")
    if not refs and not conditions:
        return dict(compiled)
    inputs = [
        {**io, "value": refs[io["name"]]} if io["name"] in refs else io
        for io in compiled.get("inputs", [])
    ]
    names = {io["name"] for io in inputs}
    context_params = dict(compiled.get("context_params") or {})
    context_params.update({k: v for k, v in refs.items() if k not in names})
    done = {
        **compiled,
        "inputs": inputs,
        "context_params": context_params,
        "deferred": [d for d in compiled.get("deferred", []) if d["name"] not in refs],
        "conditions": None,
    }
    if conditions:
        run_globals = build_globals(uuid=uuid, project_name=project, owner_name=owner, name=name)
        try:
            context = _context(done, {}, run_globals)
            if _falsy(render(conditions, context, location="conditions")):
                return None
        except SpecError as exc:
            raise UnresolvedError(str(exc)) from None
    return done


def resolve(
    compiled: Mapping[str, Any],
    values: Mapping[str, Any],
    ops: Mapping[str, Upstream],
    *,
    uuid: str,
    owner: str,
    project: str,
    name: str | None,
) -> Resolved:
    """Fill deferred params from ``ops`` (and ``values``: matrix points), evaluate
    ``conditions``, render the kept templates of the run. Raises :class:`UnresolvedError`."""
    resolved = {**values, **_ref_values(compiled, ops)}
    for deferred in compiled.get("deferred", []):
        if deferred["name"] not in resolved:
            raise UnresolvedError(f"param {deferred['name']!r} has no value")
    try:
        ports = service_ports(compiled["run"])  # placeholders: the executor fills them in
        run_globals = build_globals(
            uuid=uuid, project_name=project, owner_name=owner, name=name, ports=ports
        )
        context = _context(compiled, resolved, run_globals)
        conditions = compiled.get("conditions")
        if conditions and _falsy(render(conditions, context, location="conditions")):
            return Resolved(run=dict(compiled["run"]), inputs=resolved, skip=True)
        run = render_available(compiled["run"], context, set(), location="run")
    except SpecError as exc:
        raise UnresolvedError(str(exc)) from None
    inputs = {io["name"]: resolved.get(io["name"], io.get("value")) for io in compiled["inputs"]}
    return Resolved(run=run, inputs={**resolved, **inputs}, skip=False)


def content_hash(compiled_hash: str, values: Mapping[str, Any]) -> str:
    """The cache key of a child once its late values are known."""
    canonical = json.dumps([compiled_hash, values], sort_keys=True, default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()
