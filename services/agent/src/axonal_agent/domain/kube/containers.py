"""A container of a run section as Kubernetes takes it, and the env it gets (pure).

Field names become camelCase (snake_case ones survive compilation inside free Kubernetes
objects); ``command`` and ``args`` lists of strings; ``resources`` ``requests``/``limits`` of
quantity strings, the per-resource form (``cpu: 500m..1``) and ``gpu`` (``nvidia.com/gpu``)
spelled out, and a request of a resource that cannot be overcommitted (a GPU) also its limit,
as Kubernetes requires. Env entries of several origins are merged by precedence.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_spec.models.k8s_fields import camel_fields

__all__ = ["EnvVar", "container_spec", "env_entries", "merge_env", "quantity", "secret_env"]

EnvVar = dict[str, Any]

_GPU = "nvidia.com/gpu"
#: The resources whose request may be below their limit; any other needs both equal.
_OVERCOMMITTED = frozenset({"cpu", "memory", "ephemeral-storage"})


def quantity(value: Any, where: str) -> str:
    """A Kubernetes quantity as a string: ``2`` -> ``"2"``, ``0.5`` -> ``"0.5"``."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise InvalidRunError(f"{where}: not a resource quantity: {value!r}")
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    text = str(value).strip()
    if not text or "{{" in text:
        raise InvalidRunError(f"{where}: not a resource quantity: {value!r}")
    return text


def _resources(raw: Any, where: str) -> dict[str, Any]:
    if raw is None:
        return {}
    if not isinstance(raw, Mapping):
        raise InvalidRunError(f"{where}: expected a mapping, got {raw!r}")
    sections: dict[str, dict[str, str]] = {"requests": {}, "limits": {}}
    for section, amounts in sections.items():
        for name, value in (raw.get(section) or {}).items():
            key = _GPU if name == "gpu" else str(name)
            amounts[key] = quantity(value, f"{where}.{section}.{name}")
    for name, value in raw.items():
        if name in ("requests", "limits", "claims"):
            continue
        key, at = (_GPU if name == "gpu" else str(name)), f"{where}.{name}"
        if isinstance(value, Mapping):
            pairs = [(s, value.get(s)) for s in sections if value.get(s) is not None]
        else:
            low, dots, high = str(value).partition("..")
            pairs = [("requests", low if dots else value), ("limits", high if dots else value)]
        for section, amount in pairs:
            sections[section][key] = quantity(amount, at)
    _equal_when_not_overcommitted(sections, where)
    resources: dict[str, Any] = {name: amounts for name, amounts in sections.items() if amounts}
    if raw.get("claims"):
        resources["claims"] = raw["claims"]
    return resources


def _equal_when_not_overcommitted(sections: dict[str, dict[str, str]], where: str) -> None:
    requests, limits = sections["requests"], sections["limits"]
    for name, amount in requests.items():
        if name in _OVERCOMMITTED:
            continue
        limit = limits.setdefault(name, amount)
        if limit != amount:
            raise InvalidRunError(
                f"{where}: {name} cannot be overcommitted, its request ({amount}) must be "
                f"its limit ({limit})"
            )


def _strings(value: Any, where: str) -> list[str] | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise InvalidRunError(f"{where}: expected a string or a list, got {value!r}")
    return [str(item) for item in items]


def env_entries(raw: Any, where: str) -> list[EnvVar]:
    """A container's ``env``: a list of ``{name, value}``/``{name, valueFrom}`` (or a mapping
    of name to value), values as strings."""
    if raw is None:
        return []
    items = [{"name": k, "value": v} for k, v in raw.items()] if isinstance(raw, Mapping) else raw
    if not isinstance(items, list):
        raise InvalidRunError(f"{where}: expected a list of variables, got {raw!r}")
    entries: list[EnvVar] = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping) or not item.get("name"):
            raise InvalidRunError(f"{where}[{index}]: a variable needs a name: {item!r}")
        entry: EnvVar = {"name": str(item["name"])}
        if item.get("valueFrom") is not None:
            entry["valueFrom"] = item["valueFrom"]
        else:
            entry["value"] = "" if item.get("value") is None else str(item["value"])
        entries.append(entry)
    return entries


def merge_env(*layers: Sequence[EnvVar]) -> list[EnvVar]:
    """One entry per name, from the first layer that has it (the first layer wins), in
    layer order: variables of a later layer may refer to an earlier one's (``$(NAME)``)."""
    merged: dict[str, EnvVar] = {}
    for layer in layers:
        for entry in layer:
            merged.setdefault(entry["name"], entry)
    return list(merged.values())


def secret_env(secret: str | None, keys: Sequence[str]) -> list[EnvVar]:
    """``keys`` of the Secret ``secret`` as variables of the same names."""
    if secret is None:
        return []
    return [
        {"name": key, "valueFrom": {"secretKeyRef": {"name": secret, "key": key}}} for key in keys
    ]


def container_spec(
    raw: Any, *, where: str, name: str, default_image: str | None = None
) -> dict[str, Any]:
    """The Kubernetes container for ``raw`` (a run section's container), named ``name``;
    :class:`InvalidRunError` naming the field when it cannot be one."""
    if not isinstance(raw, Mapping):
        raise InvalidRunError(f"{where}: the section has no container")
    container: dict[str, Any] = {"name": name}
    container.update((k, v) for k, v in camel_fields(dict(raw), "Container").items() if k != "name")
    image = container.get("image") or default_image
    if not image:
        raise InvalidRunError(f"{where}.image: no image, and the agent has no default image")
    container["image"] = str(image)
    for key in ("command", "args"):
        values = _strings(container.get(key), f"{where}.{key}")
        if values is None:
            container.pop(key, None)
        else:
            container[key] = values
    resources = _resources(container.pop("resources", None), f"{where}.resources")
    if resources:
        container["resources"] = resources
    env = env_entries(container.pop("env", None), f"{where}.env")
    if env:
        container["env"] = env
    return {key: value for key, value in container.items() if value is not None}
