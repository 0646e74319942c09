"""Polyaxonfile hooks: which fire when a run is done, with what params, as what operation.

Pure. A hook fires when its ``trigger`` is the run's final status (unset or ``done``: any)
and its ``conditions`` render truthy in the run's context (``globals`` with ``status`` and
``condition``, the run's inputs and outputs). Unless ``disableDefaults``, it receives the
parent's ``uuid``, ``kind``, ``name``, ``inputs``, ``outputs``, ``status`` and ``condition``
as params (a component that declares them gets them as inputs, any other as context-only
params); its own ``params`` are rendered in the parent's context and win.
"""

from __future__ import annotations

import uuid as uuidlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import yaml

from axonal_spec import SpecError
from axonal_spec.context import ParamInfo, build_context, build_globals
from axonal_spec.templates import render

__all__ = [
    "FailedHook",
    "FiredHook",
    "Parent",
    "fired_hooks",
    "hook_operation",
    "hook_run_uuid",
]

_ANY = "done"


@dataclass(frozen=True, slots=True)
class Parent:
    """The finished run, as its hooks see it."""

    uuid: str
    owner: str
    project: str
    status: str
    name: str | None = None
    kind: str | None = None
    reason: str | None = None
    message: str | None = None
    inputs: Mapping[str, Any] = field(default_factory=dict)
    outputs: Mapping[str, Any] = field(default_factory=dict)

    @property
    def condition(self) -> dict[str, Any]:
        return {"type": self.status, "reason": self.reason, "message": self.message}


@dataclass(frozen=True, slots=True)
class FiredHook:
    """One hook to run: its component, what fired it, and its params (values, not specs)."""

    index: int
    hub_ref: str
    trigger: str
    params: dict[str, Any]
    connection: str | None = None
    queue: str | None = None


@dataclass(frozen=True, slots=True)
class FailedHook:
    """A hook whose conditions or params do not render: it does not run, and says why."""

    index: int
    hub_ref: str
    error: str
    connection: str | None = None


def _context(parent: Parent) -> dict[str, Any]:
    run_globals = build_globals(
        uuid=parent.uuid,
        project_name=parent.project,
        owner_name=parent.owner,
        name=parent.name,
        status=parent.status,
        condition=parent.condition,
    )
    return build_context(
        run_globals=run_globals,
        inputs=[ParamInfo(k, v) for k, v in parent.inputs.items()],
        outputs=[ParamInfo(k, v) for k, v in parent.outputs.items()],
    )


def _truthy(value: Any) -> bool:
    if isinstance(value, str):
        return value.strip().lower() not in ("", "false", "0", "none", "no")
    return bool(value)


def _param_value(spec: Any) -> Any:
    """A hook param's value: the long form ``{value: ...}`` or the short form."""
    if isinstance(spec, Mapping) and "value" in spec:
        return spec["value"]
    return spec


def _defaults(parent: Parent) -> dict[str, Any]:
    return {
        "uuid": parent.uuid,
        "kind": parent.kind,
        "name": parent.name,
        "inputs": dict(parent.inputs),
        "outputs": dict(parent.outputs),
        "status": parent.status,
        "condition": parent.condition,
    }


def fired_hooks(
    hooks: list[Mapping[str, Any]], parent: Parent
) -> tuple[list[FiredHook], list[FailedHook]]:
    """The hooks of ``parent`` that fire now, in their order, and those whose trigger holds
    but whose conditions or params do not render (each names itself, ``hooks[i]``); one
    broken hook does not keep the others from running."""
    context = _context(parent)
    out: list[FiredHook] = []
    failed: list[FailedHook] = []
    for index, hook in enumerate(hooks):
        trigger = str(hook.get("trigger") or _ANY)
        if trigger not in (_ANY, parent.status):
            continue
        where = f"hooks[{index}]"
        try:
            conditions = hook.get("conditions")
            if conditions and not _truthy(render(conditions, context, location=where)):
                continue
            own = {
                name: render(_param_value(spec), context, location=f"{where}.params.{name}")
                for name, spec in (hook.get("params") or {}).items()
            }
        except SpecError as exc:
            failed.append(FailedHook(index, str(hook["hubRef"]), str(exc), hook.get("connection")))
            continue
        defaults = {} if hook.get("disableDefaults") else _defaults(parent)
        out.append(
            FiredHook(
                index=index,
                hub_ref=str(hook["hubRef"]),
                trigger=trigger,
                params={**defaults, **own},
                connection=hook.get("connection"),
                queue=hook.get("queue"),
            )
        )
    return out, failed


def hook_run_uuid(event_id: str) -> str:
    """The uuid of the run a ``hook.requested`` event starts: the same for a redelivery."""
    return uuidlib.uuid5(uuidlib.NAMESPACE_URL, f"axonal:hook:{event_id}").hex


def hook_operation(hub_ref: str, params: Mapping[str, Any], queue: str | None = None) -> str:
    """The polyaxonfile of the operation a hook starts."""
    doc: dict[str, Any] = {
        "version": 1.1,
        "kind": "operation",
        "hubRef": hub_ref,
        "params": {name: {"value": value} for name, value in params.items()},
    }
    if queue:
        doc["queue"] = queue
    return yaml.safe_dump(doc, sort_keys=False)
