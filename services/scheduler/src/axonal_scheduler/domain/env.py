"""``toEnv``: params and IO exposed to the process as environment variables."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["env_names", "env_values", "op_env_names"]


def _component(doc: Mapping[str, Any]) -> Mapping[str, Any]:
    inner = doc.get("component")
    return inner if isinstance(inner, Mapping) else doc


def env_names(doc: Mapping[str, Any]) -> dict[str, str]:
    """Param name -> env var name, from an operation or component document (camelCase)."""
    component = _component(doc)
    names: dict[str, str] = {}
    for io in [*(component.get("inputs") or []), *(component.get("outputs") or [])]:
        if isinstance(io, Mapping) and io.get("toEnv"):
            names[str(io["name"])] = str(io["toEnv"])
    for name, param in (doc.get("params") or {}).items():
        if isinstance(param, Mapping) and param.get("toEnv"):
            names[str(name)] = str(param["toEnv"])
    return names


def op_env_names(doc: Mapping[str, Any]) -> dict[str, dict[str, str]]:
    """For a DAG document: op name -> its ``toEnv`` names."""
    component = _component(doc)
    operations = (component.get("run") or {}).get("operations") or []
    return {
        str(op["name"]): env_names(op)
        for op in operations
        if isinstance(op, Mapping) and op.get("name")
    }


def env_values(names: Mapping[str, str], values: Mapping[str, Any]) -> dict[str, str]:
    """The env vars of the params that have a value: strings as is, the rest as JSON."""
    out: dict[str, str] = {}
    for name, env in names.items():
        value = values.get(name)
        if value is not None:
            out[env] = value if isinstance(value, str) else json.dumps(value)
    return out
