"""Unknown fields in the Kubernetes-shaped sections, with the closest valid name as a hint.

Containers (``container``, ``sidecars``, init containers), ``volumes`` and the Kubernetes
objects of ``environment`` (``affinity``, ``tolerations``, ``securityContext``, ...) are
walked against the Kubernetes schema: ``k8s_fields.json`` lists each object's fields and the
object each one holds (generated from the schema of the ``kubernetes-validate`` package by
``libs/spec/tools/k8s_fields.py``). Keys are accepted in camelCase, as in Kubernetes YAML, or
in snake_case, as elsewhere in a polyaxonfile. Only field names are judged here: the typed
models check the values they care about, and ``{{ }}`` templates are left to the compiler.
:func:`camel_fields` gives such an object the camelCase field names Kubernetes takes.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Callable, Mapping
from functools import cache
from importlib.resources import files
from typing import Any

from pydantic.alias_generators import to_camel

from axonal_spec.models.fields import RuleViolation

__all__ = ["camel_fields", "k8s_object", "unknown_fields"]

Problems = list[tuple[tuple[str | int, ...], str]]

#: Fields where Polyaxon departs from Kubernetes and a typed model has the last word:
#: ``resources`` also takes one entry per resource (``cpu: 500m..1``).
_OWN_RULES = frozenset({("Container", "resources")})


@cache
def _objects() -> dict[str, dict[str, str | None]]:
    text = files("axonal_spec.models").joinpath("k8s_fields.json").read_text()
    objects: dict[str, dict[str, str | None]] = json.loads(text)["objects"]
    return objects


def unknown_fields(value: Any, kind: str) -> Problems:
    """``(location, message)`` for every unknown field of ``value``, a Kubernetes ``kind``
    object or a list of them, at any depth."""
    problems: Problems = []
    _walk(value, kind, (), problems)
    return problems


def camel_fields(value: Any, kind: str) -> Any:
    """``value`` (a Kubernetes ``kind`` object or a list of them) with every field name in
    camelCase, as the API server takes it; maps (labels, ``nodeSelector``, resource amounts)
    keep their keys, and so do unknown fields (:func:`unknown_fields` refuses them)."""
    if isinstance(value, list):
        return [camel_fields(item, kind) for item in value]
    if not isinstance(value, Mapping):
        return value
    fields = _objects()[kind]
    result: dict[Any, Any] = {}
    for key, item in value.items():
        name = to_camel(key) if isinstance(key, str) and key not in fields else key
        if name not in fields:
            result[key] = item
            continue
        nested = fields[name]
        walk = nested is not None and (kind, name) not in _OWN_RULES
        result[name] = camel_fields(item, nested) if walk and nested else item
    return result


def k8s_object(kind: str) -> Callable[[Any], Any]:
    """A validator raising a :class:`RuleViolation` naming the unknown fields of a ``kind``."""

    def check(value: Any) -> Any:
        problems = unknown_fields(value, kind)
        if problems:
            raise RuleViolation(problems)
        return value

    return check


def _walk(value: Any, kind: str, path: tuple[str | int, ...], problems: Problems) -> None:
    if isinstance(value, list):
        for index, item in enumerate(value):
            _walk(item, kind, (*path, index), problems)
        return
    if not isinstance(value, Mapping):
        return  # a scalar or a template: not a matter of field names
    fields = _objects()[kind]
    for key, item in value.items():
        if not isinstance(key, str):
            continue  # the models report keys that are not strings
        name = key if key in fields else to_camel(key)
        if name not in fields:
            problems.append(((*path, key), _unknown(name, fields)))
            continue
        nested = fields[name]
        if nested is not None and (kind, name) not in _OWN_RULES:
            _walk(item, nested, (*path, key), problems)


def _unknown(name: str, fields: Mapping[str, str | None]) -> str:
    close = difflib.get_close_matches(name, list(fields), n=1)
    if close:
        return f"unknown field; did you mean '{close[0]}'?"
    return f"unknown field (known: {', '.join(fields)})"
