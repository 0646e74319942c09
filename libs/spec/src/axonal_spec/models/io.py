"""Inputs and outputs (V1IO) and their value constraints (V1Validation).

Rules applied here (Polyaxon 2.18): the names ``globals``, ``params`` and ``connections`` are
reserved; declaring ``value`` (even ``null``) makes an IO optional, so ``isOptional: false``
with a ``value`` is an error; ``isFlag`` needs ``type: bool``; ``type`` must parse; the
deprecated ``options`` and ``delayValidation`` keys are moved into ``validation.options`` /
``validation.delay``. Values are not coerced here: :mod:`axonal_spec.types` converts them
against ``type`` when the file is compiled.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import model_validator

from axonal_spec.base import SpecModel
from axonal_spec.errors import SpecError
from axonal_spec.models.fields import Int, RuleViolation, show
from axonal_spec.types import parse_type

__all__ = ["IO", "RESERVED_IO_NAMES", "Validation"]

#: IO names that would shadow context sections.
RESERVED_IO_NAMES = frozenset({"globals", "params", "connections"})


class Validation(SpecModel):
    """Constraints checked on a value (element-wise for lists and dict values)."""

    delay: bool | None = None
    gt: float | None = None
    ge: float | None = None
    lt: float | None = None
    le: float | None = None
    multiple_of: float | None = None
    min_digits: Int | None = None
    max_digits: Int | None = None
    decimal_places: Int | None = None
    regex: str | None = None
    min_length: Int | None = None
    max_length: Int | None = None
    contains: Any = None
    excludes: Any = None
    options: list[Any] | None = None
    min_items: Int | None = None
    max_items: Int | None = None
    keys: list[str] | None = None
    contains_keys: list[str] | None = None
    excludes_keys: list[str] | None = None


class IO(SpecModel):
    """One declared input or output of a component."""

    name: str
    description: str | None = None
    type: str | None = None
    value: Any = None
    is_optional: bool | None = None
    is_list: bool | None = None
    is_flag: bool | None = None
    arg_format: str | None = None
    connection: str | None = None
    to_init: bool | None = None
    to_env: str | None = None
    validation: Validation | None = None

    @model_validator(mode="before")
    @classmethod
    def _defaults(cls, data: Any) -> Any:
        if not isinstance(data, Mapping):
            return data
        values = dict(data)
        optional_key = next((k for k in ("isOptional", "is_optional") if k in values), None)
        if "value" in values:
            if optional_key is None:
                values["isOptional"] = True
            elif values[optional_key] is False:
                name = values.get("name")
                raise RuleViolation(
                    [
                        (
                            ("isOptional",),
                            f"'{name}' has a default value {show(values['value'])}, "
                            "so it cannot be isOptional: false",
                        )
                    ]
                )
        return _fold_validation(values)

    @model_validator(mode="after")
    def _rules(self) -> IO:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        hints: dict[tuple[str | int, ...], str] = {}
        try:
            parse_type(self.type)
        except SpecError as exc:
            [problem] = exc.problems
            problems.append((("type",), problem.message))
            if problem.hint:
                hints["type",] = problem.hint
        if self.name in RESERVED_IO_NAMES:
            reserved = ", ".join(sorted(RESERVED_IO_NAMES))
            problems.append((("name",), f"'{self.name}' is a reserved name ({reserved})"))
        if self.is_flag and self.type != "bool":
            problems.append((("isFlag",), f"isFlag needs type: bool, got type {show(self.type)}"))
        if problems:
            raise RuleViolation(problems, hints)
        return self

    @property
    def is_required(self) -> bool:
        """Not optional: a param must provide its value."""
        return not self.is_optional


def _fold_validation(values: dict[str, Any]) -> dict[str, Any]:
    """Move the deprecated ``options`` / ``delayValidation`` keys into ``validation``."""
    options = values.pop("options", None)
    delay = values.pop("delayValidation", values.pop("delay_validation", None))
    if options is None and delay is None:
        return values
    validation = values.get("validation")
    if validation is None:
        validation = {}
    if not isinstance(validation, Mapping):
        return values  # let the field report the bad type
    validation = dict(validation)
    if options is not None:
        validation["options"] = options
    if delay is not None:
        validation["delay"] = delay
    values["validation"] = validation
    return values
