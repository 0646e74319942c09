"""Label and field selectors of list and watch requests."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from axonal_testing.kube.status import bad_request

__all__ = ["Matcher", "field_matcher", "label_matcher"]

Matcher = Callable[[dict[str, Any]], bool]

_SET = re.compile(r"^\s*([\w./-]+)\s+(in|notin)\s+\(([^)]*)\)\s*$")
_EQUALITY = re.compile(r"^\s*([\w./-]+)\s*(==|=|!=)\s*([\w./-]*)\s*$")
_EXISTS = re.compile(r"^\s*(!?)\s*([\w./-]+)\s*$")

# https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors/#supported-fields:
# "All resource types support the metadata.name and metadata.namespace fields"; pods add
# spec.nodeName and status.phase among others, Secrets their type.
_FIELDS: dict[str, tuple[str, ...]] = {
    "": ("metadata.name", "metadata.namespace"),
    "pods": ("spec.nodeName", "status.phase", "spec.restartPolicy"),
    "secrets": ("type",),
}


def _requirements(selector: str) -> list[str]:
    """Split on the commas that are not inside a set's parentheses."""
    parts, depth, current = [], 0, ""
    for char in selector:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    return [p for p in parts if p.strip()]


def _label_requirement(text: str) -> Matcher:
    if m := _SET.match(text):
        key, op, values = m[1], m[2], {v.strip() for v in m[3].split(",") if v.strip()}
        if op == "in":
            return lambda labels: labels.get(key) in values
        return lambda labels: labels.get(key) not in values
    if m := _EQUALITY.match(text):
        key, op, value = m[1], m[2], m[3]
        if op == "!=":
            return lambda labels: labels.get(key) != value
        return lambda labels: labels.get(key) == value
    if m := _EXISTS.match(text):
        negated, key = m[1] == "!", m[2]
        return lambda labels: (key in labels) != negated
    raise bad_request(f"unable to parse requirement: {text.strip()!r}")


def label_matcher(selector: str | None) -> Matcher:
    """Objects whose labels satisfy every requirement of ``selector``.

    https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors:
    equality-based (``=``, ``==``, ``!=``) and set-based (``in``, ``notin``, ``key``,
    ``!key``) requirements, separated by commas that act as a logical AND.
    """
    checks = [_label_requirement(r) for r in _requirements(selector or "")]

    def matches(obj: dict[str, Any]) -> bool:
        labels = obj.get("metadata", {}).get("labels") or {}
        return all(check(labels) for check in checks)

    return matches


def _field(obj: dict[str, Any], path: str) -> str:
    value: Any = obj
    for part in path.split("."):
        value = value.get(part) if isinstance(value, dict) else None
    return "" if value is None else str(value)


def field_matcher(selector: str | None, plural: str) -> Matcher:
    """Objects whose fields satisfy ``selector``; an unsupported field is a 400, as upstream.

    https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors/:
    ``=``, ``==`` and ``!=`` can be chained with commas; "Using unsupported fields produces
    an error" (``field label not supported``).
    """
    supported = _FIELDS[""] + _FIELDS.get(plural, ())
    checks: list[tuple[str, bool, str]] = []
    for text in _requirements(selector or ""):
        m = _EQUALITY.match(text)
        if m is None:
            raise bad_request(f"invalid selector: {text.strip()!r}")
        if m[1] not in supported:
            raise bad_request(f"field label not supported: {m[1]}")
        checks.append((m[1], m[2] != "!=", m[3]))

    def matches(obj: dict[str, Any]) -> bool:
        return all((_field(obj, path) == value) == equal for path, equal, value in checks)

    return matches
