"""Parse a ``matrix`` (or one hyperparameter) into its model, reporting :class:`SpecError`.

Pydantic locates errors inside a discriminated union under the union's tag
(``('~grid', 'params', 'lr')``); tags are not keys of the file and are dropped:
``matrix.params.lr`` (the same rendering as :mod:`axonal_spec.parsing` for whole files).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import TypeAdapter, ValidationError

from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.matrix._union import TAG_PREFIX
from axonal_spec.matrix.hyperparams import HyperParam, HyperParamBase
from axonal_spec.matrix.kinds import AnyMatrix, Matrix

__all__ = ["parse_hyperparam", "parse_matrix", "spec_error_from_validation"]

_MATRIX: TypeAdapter[AnyMatrix] = TypeAdapter(Matrix)
_HYPERPARAM: TypeAdapter[Any] = TypeAdapter(HyperParam)


def _file_location(data: Any, loc: Sequence[str | int]) -> list[str | int]:
    """The parts of a pydantic ``loc`` that are keys/indexes of ``data`` (union tags dropped)."""
    parts: list[str | int] = []
    node = data
    for part in loc:
        if part == "[key]" or (isinstance(part, str) and part.startswith(TAG_PREFIX)):
            continue  # a union branch tag (``~grid``) or pydantic's dict-key marker
        if isinstance(node, Mapping):
            node = node.get(part)
        elif isinstance(node, list | tuple) and isinstance(part, int) and 0 <= part < len(node):
            node = node[part]
        else:
            node = None
        parts.append(part)
    return parts


def spec_error_from_validation(error: ValidationError, data: Any, location: str = "") -> SpecError:
    """One :class:`Problem` per pydantic error, located in the file's own spelling."""
    problems = []
    for item in error.errors(include_url=False):
        message = item["msg"].removeprefix("Value error, ")
        if item["type"] == "missing":
            message = "is required"
        elif item["type"] == "extra_forbidden":
            message = "is not a known field"
        parts = _file_location(data, item["loc"])
        if item["type"] == "spec_kind":
            parts.append("kind")
            got = item["input"].get("kind") if isinstance(item["input"], Mapping) else None
            message = item["msg"] + ("; kind is missing" if got is None else f"; got {got!r}")
        problems.append(Problem(join_location(location, *parts), message))
    return SpecError(problems)


def parse_matrix(data: Any, location: str = "matrix") -> AnyMatrix:
    """The matrix model for ``data`` (a mapping from a file), or a located :class:`SpecError`."""
    try:
        return _MATRIX.validate_python(data)
    except ValidationError as exc:
        raise spec_error_from_validation(exc, data, location) from None


def parse_hyperparam(data: Any, location: str = "") -> HyperParamBase:
    """One hyperparameter model (``{kind, value}``), or a located :class:`SpecError`."""
    try:
        param: HyperParamBase = _HYPERPARAM.validate_python(data)
        return param
    except ValidationError as exc:
        raise spec_error_from_validation(exc, data, location) from None
