"""Params (V1Param): values passed to a component's inputs/outputs or to its context.

Long form ``lr: {value: 0.1, ref: ..., contextOnly: ..., connection: ..., toInit: ...,
toEnv: ...}``; 2.18 short form ``lr: 0.1``. A mapping with none of those keys is a literal
value (``config: {optimizer: adam}``); an empty mapping is the long form with no value.

A ``ref`` is ``dag``, ``ops.<op-name>`` or ``runs.<uuid>``; its ``value`` names what to take
from the reference: ``outputs``, ``outputs.<x>``, ``inputs``, ``inputs.<x>``, ``io``,
``globals``, ``globals.<key>``, ``artifacts``, ``artifacts.<x>``, ``artifacts.<x>.<y>``
(``{{ }}`` around it is tolerated). A ``dag`` ref cannot read the current DAG's outputs.
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterable, Mapping
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, model_validator

from axonal_spec.base import SpecModel
from axonal_spec.models.fields import RuleViolation, is_template, show

__all__ = [
    "PARAM_KEYS",
    "JoinParam",
    "JoinParams",
    "Param",
    "Params",
    "check_params",
    "normalize_params",
    "parse_ref",
]

#: Keys that make a mapping the long form of a param.
PARAM_KEYS = frozenset(
    {"value", "ref", "contextOnly", "context_only", "connection"}
    | {"toInit", "to_init", "toEnv", "to_env"}
)
_CONTEXTS = ("globals", "inputs", "outputs", "artifacts", "io")
_NESTED = ("globals", "inputs", "outputs", "artifacts")
_TEMPLATE = re.compile(r"^\s*{{\s*(.*?)\s*}}\s*$")
_OP_NAME = re.compile(r"[-a-zA-Z0-9_]+")

RefKind = Literal["dag", "ops", "runs"]


def parse_ref(ref: str) -> tuple[RefKind, str | None]:
    """``"ops.train"`` -> ``("ops", "train")``; ``"dag"`` -> ``("dag", None)``.

    Raises ``ValueError`` for anything else.
    """
    head, _, entity = ref.partition(".")
    if ref == "dag":
        return "dag", None
    if head == "ops" and _OP_NAME.fullmatch(entity):
        return "ops", entity
    if head == "runs" and entity:
        try:
            return "runs", uuid.UUID(entity).hex
        except ValueError:
            pass
    raise ValueError(f"ref must be 'dag', 'ops.<op-name>' or 'runs.<uuid>', got {show(ref)}")


def _check_ref_value(kind: RefKind, value: Any) -> str | None:
    """The problem with a ref's ``value`` (what to read from the reference), if any."""
    if not isinstance(value, str):
        return f"with a ref, value must be a string such as 'outputs.loss', got {show(value)}"
    match = _TEMPLATE.match(value)
    parts = [part.strip() for part in (match.group(1) if match else value).split(".")]
    rules = (
        (len(parts) > 3 or not all(parts), f"cannot read {value!r} from a ref"),
        (
            len(parts) == 1 and parts[0] not in _CONTEXTS,
            f"value must be one of {', '.join(_CONTEXTS)} (or a dotted path), got {value!r}",
        ),
        (
            len(parts) == 2 and parts[0] not in _NESTED,
            f"value must start with one of {', '.join(_NESTED)}, got {value!r}",
        ),
        (
            len(parts) == 3 and parts[0] != "artifacts",
            f"only artifacts.<x>.<y> may have three parts, got {value!r}",
        ),
        (
            kind == "dag" and parts[0] == "outputs",
            "a 'dag' ref cannot read the outputs of the current DAG",
        ),
    )
    return next((message for broken, message in rules if broken), None)


class JoinParam(SpecModel):
    """A param filled from every run matched by a join (exposed as a list); no ``ref``."""

    value: Any = None
    context_only: bool | None = None
    connection: str | None = None
    to_init: bool | None = None
    to_env: str | None = None


class Param(SpecModel):
    """A value for an input/output, or a context-only value."""

    value: Any = None
    ref: str | None = None
    context_only: bool | None = None
    connection: str | None = None
    to_init: bool | None = None
    to_env: str | None = None

    @model_validator(mode="after")
    def _check_ref(self) -> Param:
        if self.ref is None:
            return self
        try:
            kind, _ = parse_ref(self.ref)
        except ValueError as exc:
            raise RuleViolation([(("ref",), str(exc))]) from None
        problem = _check_ref_value(kind, self.value)
        if problem:
            raise RuleViolation([(("value",), problem)])
        return self

    @property
    def ref_kind(self) -> RefKind | None:
        """``dag``, ``ops`` or ``runs`` for a ref param, else ``None``."""
        return parse_ref(self.ref)[0] if self.ref else None

    @property
    def ref_entity(self) -> str | None:
        """The op name of an ``ops.<name>`` ref, the uuid hex of a ``runs.<uuid>`` ref."""
        return parse_ref(self.ref)[1] if self.ref else None

    @property
    def is_template(self) -> bool:
        """A literal ``{{ }}`` value resolved against the current run's context."""
        return self.ref is None and is_template(self.value)


def normalize_params(params: Any) -> Any:
    """Turn the 2.18 short form ``lr: 0.1`` into ``lr: {value: 0.1}`` (other shapes pass)."""
    if not isinstance(params, Mapping):
        return params
    return {name: _long_form(value) for name, value in params.items()}


def _long_form(value: Any) -> Any:
    if isinstance(value, SpecModel):
        return value
    if isinstance(value, Mapping) and (not value or PARAM_KEYS & set(value)):
        return value
    return {"value": value}


Params = Annotated[dict[str, Param], BeforeValidator(normalize_params)]
JoinParams = Annotated[dict[str, JoinParam], BeforeValidator(normalize_params)]


def check_params(
    params: Mapping[str, Param], declared: Iterable[str], *, strict: bool
) -> list[tuple[tuple[str | int, ...], str]]:
    """Problems with params that match no declared input/output.

    ``contextOnly: false`` on an undeclared param is always an error; with ``strict``
    (``strictParams``) an undeclared param must set ``contextOnly: true``.
    """
    known = set(declared)
    problems: list[tuple[tuple[str | int, ...], str]] = []
    for name, param in params.items():
        if name in known or param.context_only:
            continue
        if param.context_only is False:
            problems.append(
                (
                    ("params", name, "contextOnly"),
                    f"param '{name}' matches no input/output, so it cannot be contextOnly: false",
                )
            )
        elif strict:
            problems.append(
                (
                    ("params", name),
                    f"strictParams: param '{name}' matches no input/output; "
                    "declare it or set contextOnly: true",
                )
            )
    return problems
