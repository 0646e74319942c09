"""Field types shared by the models: ``{{ }}`` templates, lenient numbers, names, rule errors.

Polyaxon's ``XOrRef`` fields accept either their type or a string holding a ``{{ ... }}``
template resolved at compile time: :data:`OrRef` builds such a field for any model or list.
Integer fields are lenient: a clean numeric string (``"5"``) or an integral float is accepted
(Polyaxon 2.18 rejects ``"5"``; older docs quote numbers, so we do not).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Annotated, Any, TypeVar, Union, get_args

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    Discriminator,
    PlainValidator,
    Tag,
    ValidationError,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from pydantic_core.core_schema import ErrorType

__all__ = [
    "TAG_PREFIX",
    "BoolOrRef",
    "FloatOrRef",
    "Int",
    "IntOrRef",
    "Name",
    "OrRef",
    "PositiveIntOrRef",
    "RuleViolation",
    "StrList",
    "Text",
    "TextOrList",
    "is_template",
    "kind_discriminator",
    "show",
    "with_violation",
]

T = TypeVar("T")

#: Union branches are tagged ``~<name>``; error locations drop these tags.
TAG_PREFIX = "~"
_VALUE, _REF = "~value", "~ref"
_INT_RE = re.compile(r"[+-]?\d+")
_FLOAT_RE = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
_NAME_RE = re.compile(r"[-a-zA-Z0-9_]+")


def is_template(value: object) -> bool:
    """True for a string holding a ``{{ ... }}`` template."""
    return isinstance(value, str) and "{{" in value


def show(value: object) -> str:
    """A short rendering of a bad value for an error message."""
    if isinstance(value, Mapping):
        return "a mapping"
    if isinstance(value, list | tuple):
        return "a list"
    if value is None:
        return "null"
    if isinstance(value, str | int | float | bool):
        text = repr(value)
        return text if len(text) <= 60 else text[:57] + "...'"
    return f"a {type(value).__name__}"


class RuleViolation(ValueError):
    """A model rule is broken; each problem is ``(sub-location, message)`` below the model,
    ``hints`` optionally gives a hint per sub-location."""

    def __init__(
        self,
        problems: Sequence[tuple[tuple[str | int, ...], str]],
        hints: Mapping[tuple[str | int, ...], str] | None = None,
    ) -> None:
        self.problems = list(problems)
        self.hints = dict(hints or {})
        super().__init__("; ".join(message for _, message in self.problems))


_BUILTIN_ERRORS = frozenset(get_args(ErrorType))


def with_violation(exc: ValidationError, violation: RuleViolation, data: Any) -> ValidationError:
    """``exc`` plus the problems of ``violation`` (found on the same ``data``), as one error,
    so that a model can report its own rule and its fields' errors together."""
    details: list[InitErrorDetails] = []
    for error in exc.errors():
        kind: str | PydanticCustomError = error["type"]
        if kind not in _BUILTIN_ERRORS:  # a custom error keeps its message as is
            kind = PydanticCustomError(error["type"], error["msg"])
        detail = InitErrorDetails(type=kind, loc=error["loc"], input=error["input"])
        if "ctx" in error and not isinstance(kind, PydanticCustomError):
            detail["ctx"] = error["ctx"]
        details.append(detail)
    details.append(
        InitErrorDetails(type="value_error", loc=(), input=data, ctx={"error": violation})
    )
    return ValidationError.from_exception_data(exc.title, details)


def _pick_ref(value: Any) -> str:
    return _REF if is_template(value) else _VALUE


#: ``OrRef[Cache]``: a ``Cache`` or a ``{{ }}`` template string.
OrRef = Annotated[
    Union[Annotated[T, Tag(_VALUE)], Annotated[str, Tag(_REF)]],  # noqa: UP007
    Discriminator(_pick_ref),
]


def kind_discriminator(
    label: str, kinds: Sequence[str], default: str | None = None
) -> Discriminator:
    """Pick the union branch tagged ``~<kind>`` from a mapping's ``kind``.

    A non-mapping goes to ``default`` (so the error says "expected a mapping"); a missing or
    unknown kind raises ``spec_kind`` (rendered as "``<label>.kind`` must be one of ...").
    """
    fallback = f"{TAG_PREFIX}{default or kinds[0]}"

    def pick(value: Any) -> str | None:
        if isinstance(value, BaseModel):
            return f"{TAG_PREFIX}{getattr(value, 'kind', default)}"
        if not isinstance(value, Mapping):
            return fallback
        kind = value.get("kind")
        return f"{TAG_PREFIX}{kind}" if isinstance(kind, str) and kind in kinds else None

    return Discriminator(
        pick,
        custom_error_type="spec_kind",
        custom_error_message=f"{label}.kind must be one of {', '.join(kinds)}",
    )


def _integer(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError(f"expected an integer, got {show(value)}")
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and _INT_RE.fullmatch(value.strip()):
        return int(value.strip())
    raise ValueError(f"expected an integer, got {show(value)}")


def _int_or_ref(value: Any) -> int | str:
    return str(value) if is_template(value) else _integer(value)


def _positive_int_or_ref(value: Any) -> int | str:
    number = _int_or_ref(value)
    if isinstance(number, int) and number < 1:
        raise ValueError(f"must be >= 1, got {number}")
    return number


def _float_or_ref(value: Any) -> float | str:
    if is_template(value):
        return str(value)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and _FLOAT_RE.fullmatch(value.strip()):
        return float(value.strip())
    raise ValueError(f"expected a number, got {show(value)}")


def _bool_or_ref(value: Any) -> bool | str:
    if isinstance(value, bool):
        return value
    if is_template(value):
        return str(value)
    if isinstance(value, str) and value.strip().lower() in {"true", "false"}:
        return value.strip().lower() == "true"
    raise ValueError(f"expected a boolean, got {show(value)}")


def _text_or_list(value: Any) -> str:
    return "~list" if isinstance(value, list | tuple) else "~text"


def _texts(value: Any) -> Any:
    """Numbers in a command/args list become strings (``- 8788`` -> ``"8788"``)."""
    if isinstance(value, list | tuple):
        return [_scalar_to_text(v) if not isinstance(v, bool) else v for v in value]
    return value


def _check_name(value: str) -> str:
    if not (_NAME_RE.fullmatch(value) or is_template(value)):
        raise ValueError(f"a name may only hold letters, digits, '-' and '_', got {show(value)}")
    return value


def _split_commas(value: Any) -> Any:
    if isinstance(value, str):
        return [part.strip() for part in value.split(",") if part.strip()]
    return value


def _scalar_to_text(value: Any) -> Any:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    return value


Int = Annotated[int, PlainValidator(_integer)]
IntOrRef = Annotated[int | str, PlainValidator(_int_or_ref)]
PositiveIntOrRef = Annotated[int | str, PlainValidator(_positive_int_or_ref)]
FloatOrRef = Annotated[float | str, PlainValidator(_float_or_ref)]
BoolOrRef = Annotated[bool | str, PlainValidator(_bool_or_ref)]
Name = Annotated[str, AfterValidator(_check_name)]
StrList = Annotated[list[str], BeforeValidator(_split_commas)]
#: A string; numbers and booleans are turned into their text (k8s labels, env values).
Text = Annotated[str, BeforeValidator(_scalar_to_text)]
#: A string or a list of strings (``command``, ``args``, ``cmd``); list numbers become text.
TextOrList = Annotated[
    Union[  # noqa: UP007
        Annotated[str, Tag("~text")],
        Annotated[list[str], BeforeValidator(_texts), Tag("~list")],
    ],
    Discriminator(_text_or_list),
]
