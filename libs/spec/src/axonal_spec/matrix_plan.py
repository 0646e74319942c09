"""Plan an operation's matrix against its component: which inputs it sets, which runs it makes."""

from __future__ import annotations

from typing import Any

from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.matrix import MappingMatrix, expand, search_space
from axonal_spec.matrix.kinds import AnyMatrix
from axonal_spec.models import Polyaxonfile
from axonal_spec.outcome import MatrixPlan
from axonal_spec.types import convert, parse_type

__all__ = ["late_matrix_names", "plan_matrix"]

_EXPANDED = frozenset({"grid", "random", "mapping"})


def _names(matrix: AnyMatrix) -> list[str]:
    if isinstance(matrix, MappingMatrix):
        return list(dict.fromkeys(key for values in matrix.values for key in values))
    return list(getattr(matrix, "params", None) or {})


def late_matrix_names(matrix: AnyMatrix | None) -> dict[str, str]:
    """Params a matrix sets per run (known only when a run is made from a point): its params
    (or mapping keys) and, for hyperband, the ``resource`` each trial is given."""
    if matrix is None:
        return {}
    names = _names(matrix)
    resource = getattr(matrix, "resource", None)
    if resource is not None:
        names.append(resource.name)
    return dict.fromkeys(names, "matrix")


def plan_matrix(matrix: AnyMatrix, component: Polyaxonfile, *, seed: str) -> MatrixPlan:
    """Check the matrix params against ``component``'s IO and expand or describe the search.

    Grid, random and mapping points are converted to the inputs' types (``seed`` seeds a
    random search without one of its own); adaptive kinds give their search space.
    """
    ios = {io.name: io for io in component.io()}
    problems: list[Problem] = []
    section = "values" if isinstance(matrix, MappingMatrix) else "params"
    for name in _names(matrix):
        if name not in ios and not isinstance(matrix, MappingMatrix):
            known = ", ".join(ios) or "none"
            problems.append(
                Problem(join_location(section, name), f"no input named '{name}' (inputs: {known})")
            )
    resource = getattr(matrix, "resource", None)
    if resource is not None and resource.name not in ios:
        known = ", ".join(ios) or "none"
        problems.append(
            Problem(
                "resource.name",
                f"no input named '{resource.name}' to give each trial its resource "
                f"(inputs: {known})",
            )
        )
    if problems:
        raise SpecError(problems)
    concurrency = getattr(matrix, "concurrency", None)
    if matrix.kind not in _EXPANDED:
        return MatrixPlan(
            kind=matrix.kind,
            concurrency=concurrency if isinstance(concurrency, int) else None,
            search_space=search_space(matrix),
        )
    points = [_typed(point, ios, index) for index, point in enumerate(expand(matrix, seed=seed))]
    return MatrixPlan(
        kind=matrix.kind,
        concurrency=concurrency if isinstance(concurrency, int) else None,
        size=len(points),
        points=points,
    )


def _typed(point: dict[str, Any], ios: dict[str, Any], index: int) -> dict[str, Any]:
    out = {}
    for name, value in point.items():
        io = ios.get(name)
        where = join_location("points", index, name)
        out[name] = (
            convert(
                parse_type(io.type, is_list=bool(io.is_list), location=where), value, location=where
            )
            if io is not None
            else value
        )
    return out
