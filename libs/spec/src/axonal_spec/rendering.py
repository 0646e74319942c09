"""Render a run's templates, leaving those that need run-time values for later."""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Any

from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.templates import find_references, is_template, render

__all__ = ["render_available"]


def render_available(
    value: Any, context: Mapping[str, Any], later: Set[str], *, location: str
) -> Any:
    """Render every template in ``value`` whose names are all known now.

    A template reading a name of ``later`` (an upstream output, a matrix or join param) is
    kept as written; the scheduler renders it once the value exists. All problems are
    raised together.
    """
    problems: list[Problem] = []

    def walk(node: Any, where: str) -> Any:
        if isinstance(node, Mapping):
            return {k: walk(v, join_location(where, str(k))) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(v, join_location(where, i)) for i, v in enumerate(node)]
        if not is_template(node):
            return node
        try:
            if find_references(node, location=where) & later:
                return node
            return render(node, context, location=where)
        except SpecError as exc:
            problems.extend(exc.problems)
            return node

    out = walk(value, location)
    if problems:
        raise SpecError(problems)
    return out
