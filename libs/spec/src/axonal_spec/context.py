"""The rendering context of a run (spec §3), assembled from plain data.

Layout::

    globals.<key>            run globals (build_globals): paths, names, timestamps, status
    params.<name>.value/.type/.connection/.as_arg/.as_str, params.as_args
    connections['<name>']    schema of each requested connection
    inputs.<x>, outputs.<x>  values of the declared IO
    artifacts.base/.outputs  run artifact paths (+ lineage paths given by the caller)
    <name>                   every param's value at top level

Param precedence (later wins): declared inputs (in order), outputs, context-only params,
join params, matrix params. ``as_arg`` is ``--name=value``, ``--name`` for a true ``bool``
(or ``isFlag``) param, ``""`` for a false flag or ``None``; ``argFormat`` (a template over the
param's own name) replaces it when set. ``as_str`` is a string as is, any other value as JSON.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from axonal_spec.errors import SpecError, join_location
from axonal_spec.service_values import service_globals
from axonal_spec.templates import render
from axonal_spec.types import parse_type

__all__ = ["CONTEXT_PATH", "GLOBAL_KEYS", "ParamInfo", "build_context", "build_globals"]

CONTEXT_PATH = "/plx-context"

GLOBAL_KEYS: tuple[str, ...] = (
    *("owner_name", "username", "user_email", "project_name", "project_unique_name"),
    *("project_uuid", "run_info", "name", "uuid", "namespace", "iteration", "context_path"),
    *("artifacts_path", "run_artifacts_path", "run_outputs_path", "run_relative_outputs_path"),
    *("created_at", "compiled_at", "schedule_at", "started_at", "finished_at", "duration"),
    *("status", "condition", "cloning_kind", "original_uuid", "is_independent", "store_path"),
)

_COMPUTED = frozenset(
    {
        "owner_name",
        "project_name",
        "uuid",
        "project_unique_name",
        "run_info",
        "context_path",
        "artifacts_path",
        "run_artifacts_path",
        "run_outputs_path",
        "run_relative_outputs_path",
    }
)


def build_globals(
    *,
    uuid: str,
    project_name: str,
    owner_name: str = "default",
    context_path: str = CONTEXT_PATH,
    ports: Sequence[Any] | None = None,
    **values: Any,
) -> dict[str, Any]:
    """The ``globals`` dict: every key of :data:`GLOBAL_KEYS` (``None`` when not given).

    Paths derive from ``context_path`` and ``uuid``: ``artifacts_path`` =
    ``<context_path>/artifacts``, ``run_artifacts_path`` = ``<artifacts_path>/<uuid>``,
    ``run_outputs_path`` = ``<run_artifacts_path>/outputs``. Services (``ports``: the declared
    ones) also get ``ports`` and ``base_url``, as placeholders that the executor fills in
    (:mod:`axonal_spec.service_values`).
    ``values`` sets the other keys (``name``, ``iteration``, ``created_at``, ``status``, …).
    """
    unknown = set(values) - set(GLOBAL_KEYS)
    overridden = set(values) & _COMPUTED
    if unknown or overridden:
        raise TypeError(f"build_globals() got unexpected keys: {sorted(unknown | overridden)}")
    artifacts_path = f"{context_path}/artifacts"
    run_artifacts_path = f"{artifacts_path}/{uuid}"
    result: dict[str, Any] = dict.fromkeys(GLOBAL_KEYS)
    result.update(
        owner_name=owner_name,
        project_name=project_name,
        project_unique_name=f"{owner_name}.{project_name}",
        run_info=f"{owner_name}.{project_name}.runs.{uuid}",
        uuid=uuid,
        context_path=context_path,
        artifacts_path=artifacts_path,
        run_artifacts_path=run_artifacts_path,
        run_outputs_path=f"{run_artifacts_path}/outputs",
        run_relative_outputs_path=f"{uuid}/outputs",
        is_independent=True,
    )
    result.update(values)
    if ports is not None:
        result.update(service_globals(ports))
    return result


@dataclass(frozen=True, slots=True)
class ParamInfo:
    """One param as the context needs it: resolved value plus its IO's metadata."""

    name: str
    value: Any = None
    type: str | None = None
    connection: str | None = None
    is_flag: bool = False
    arg_format: str | None = None
    context_only: bool = False


def build_context(
    *,
    run_globals: Mapping[str, Any],
    inputs: Sequence[ParamInfo] = (),
    outputs: Sequence[ParamInfo] = (),
    context_params: Sequence[ParamInfo] = (),
    join_params: Mapping[str, Any] | None = None,
    matrix_params: Mapping[str, Any] | None = None,
    connections: Mapping[str, Mapping[str, Any]] | None = None,
    artifacts: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Assemble the rendering context (layout in the module docstring).

    Join and matrix values replace the value of a declared param of the same name (keeping its
    type and flags) or add a context-only param. Raises :class:`SpecError` when an
    ``argFormat`` fails to render (at ``inputs[i].argFormat``).
    """
    entries: dict[str, tuple[ParamInfo, str]] = {}
    for section, declared in (("inputs", inputs), ("outputs", outputs)):
        for i, param in enumerate(declared):
            entries[param.name] = (param, join_location(section, i))
    for param in context_params:
        entries[param.name] = (dataclasses.replace(param, context_only=True), "params")
    for overrides in (join_params or {}, matrix_params or {}):
        for name, value in overrides.items():
            if name in entries:
                param, where = entries[name]
                entries[name] = (dataclasses.replace(param, value=value), where)
            else:
                entries[name] = (ParamInfo(name, value, context_only=True), "params")

    params: dict[str, Any] = {}
    args: list[str] = []
    for name, (param, where) in entries.items():
        as_arg = _as_arg(param, join_location(where, "argFormat"))
        params[name] = {
            "value": param.value,
            "type": param.type,
            "connection": param.connection,
            "as_arg": as_arg,
            "as_str": _as_str(param),
        }
        if as_arg and not param.context_only:
            args.append(as_arg)
    params["as_args"] = " ".join(args)

    def values_of(declared: Sequence[ParamInfo]) -> dict[str, Any]:
        return {p.name: entries[p.name][0].value for p in declared}

    context: dict[str, Any] = {name: param.value for name, (param, _) in entries.items()}
    context.update(
        globals=dict(run_globals),
        params=params,
        connections={name: dict(schema) for name, schema in (connections or {}).items()},
        inputs=values_of(inputs),
        outputs=values_of(outputs),
        artifacts={
            "base": run_globals.get("run_artifacts_path"),
            "outputs": run_globals.get("run_outputs_path"),
            **(artifacts or {}),
        },
    )
    return context


def _is_bool(param: ParamInfo) -> bool:
    if param.is_flag:
        return True
    try:
        return parse_type(param.type).name == "bool"
    except SpecError:
        return False


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, separators=(",", ":"), default=str)


def _as_str(param: ParamInfo) -> str:
    if param.is_flag:
        return f"--{param.name}" if param.value else ""
    return "" if param.value is None else _text(param.value)


def _as_arg(param: ParamInfo, location: str) -> str:
    if param.value is None:
        return ""
    if param.arg_format:
        return _text(render(param.arg_format, {param.name: param.value}, location=location))
    if _is_bool(param):
        return f"--{param.name}" if param.value else ""
    return f"--{param.name}={_as_str(param)}"
