"""Lower the 2.18 root shortcuts (``container``, ``cmd``, ``env``, ``resources``, ``ports``...)
into a ``run`` patch, as Polyaxon does at compile time.

* ``cmd`` (text or lines) becomes ``command: [/bin/sh, -c]`` and ``args: ["set -e\\n<lines>"]``.
* ``env`` (name -> value) becomes ``container.env`` items.
* ``resources`` (``cpu: 1``, ``memory: "1Gi..2Gi"``, ``gpu: 1``, ``<domain>/<res>: n``) becomes
  ``container.resources`` requests/limits; ``a..b`` means request ``a``, limit ``b``; a single
  value is both; ``gpu`` is ``nvidia.com/gpu``.
* ``ports`` make the run a ``service`` when nothing else sets the run kind.
"""

from __future__ import annotations

from typing import Any

from axonal_spec.models import Polyaxonfile

__all__ = ["implied_kind", "shortcut_patch"]

_PASSTHROUGH = ("environment", "init", "connections", "sidecars", "volumes", "ports")
_GPU = "nvidia.com/gpu"


def _resources(resources: dict[str, Any]) -> dict[str, dict[str, Any]]:
    requests: dict[str, Any] = {}
    limits: dict[str, Any] = {}
    for name, value in resources.items():
        key = _GPU if name == "gpu" else name
        if isinstance(value, dict):
            if value.get("requests") is not None:
                requests[key] = value["requests"]
            if value.get("limits") is not None:
                limits[key] = value["limits"]
            continue
        text = str(value)
        low, sep, high = text.partition("..")
        requests[key] = _quantity(low if sep else value)
        limits[key] = _quantity(high if sep else value)
    return {k: v for k, v in (("requests", requests), ("limits", limits)) if v}


def _quantity(value: Any) -> Any:
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return value


def _cmd_args(cmd: str | list[str]) -> list[str]:
    lines = cmd if isinstance(cmd, list) else [cmd]
    return ["set -e\n" + "\n".join(line.rstrip("\n") for line in lines)]


def shortcut_patch(doc: Polyaxonfile) -> dict[str, Any]:
    """The ``run`` patch equivalent to ``doc``'s root shortcuts (empty when it has none)."""
    data = doc.to_dict()
    patch: dict[str, Any] = {key: data[key] for key in _PASSTHROUGH if key in data}
    container: dict[str, Any] = dict(doc.container.to_dict()) if doc.container else {}
    if doc.cmd is not None:
        container["command"] = ["/bin/sh", "-c"]
        container["args"] = _cmd_args(doc.cmd)
    if doc.env:
        env = [{"name": name, "value": value} for name, value in doc.env.items()]
        named = {item["name"] for item in env}
        container["env"] = [e for e in container.get("env", []) if e.get("name") not in named]
        container["env"] += env
    resources = data.get("resources")
    if isinstance(resources, dict):
        container["resources"] = _resources(resources)
    if container:
        patch["container"] = container
    return patch


def implied_kind(doc: Polyaxonfile) -> str:
    """The run kind a file without ``run`` gets from its shortcuts."""
    return "service" if doc.ports else "job"
