"""The query language of ``joins`` (Polyaxon's PQL, the part that selects runs).

``status:succeeded, kind:job, metrics.loss:<0.3, tags:prod|best, name:~draft`` is a list of
conditions joined by "and". A condition is ``field:expression``; the field is ``uuid``,
``name``, ``kind``, ``status``, ``tags`` (matches if the run has any of the values), or
``inputs.X``, ``outputs.X``, ``metrics.X`` (the metric's last value). The expression is a value,
``a|b`` (any of them), ``~`` before it (not), ``<``, ``<=``, ``>``, ``>=`` a number, or
``low..high`` (both included). ``sort`` is a comma-separated list of fields, ``-`` before a
field for descending; runs without the value come last.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Condition", "Record", "fields", "matches", "parse", "sort_key", "value_of"]

Record = Mapping[str, Any]  # uuid, name, kind, status, tags, inputs, outputs, metrics
_PLAIN = ("uuid", "name", "kind", "status", "tags")
_NESTED = ("inputs", "outputs", "metrics", "globals")
_COMPARE = re.compile(r"^(<=|>=|<|>)\s*(.+)$")


@dataclass(frozen=True)
class Condition:
    field: str
    test: Callable[[Any], bool]


def _check_field(field: str, where: str) -> str:
    head, _, tail = field.partition(".")
    if field in _PLAIN or (head in _NESTED and tail):
        return field
    raise ValueError(f"{where}: `{field}` is not a field a join can read")


def _number(text: str, where: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"{where}: `{text}` is not a number") from None


def _as_number(value: Any) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return None if math.isnan(number) else number


def _test(expression: str, where: str) -> Callable[[Any], bool]:
    text = expression.strip()
    if text.startswith("~"):
        inner = _test(text[1:], where)

        def negated(value: Any) -> bool:
            return not inner(value)

        return negated
    if found := _COMPARE.match(text):
        op, bound = found.group(1), _number(found.group(2), where)
        compare: Callable[[float], bool] = {
            "<": lambda n: n < bound,
            "<=": lambda n: n <= bound,
            ">": lambda n: n > bound,
            ">=": lambda n: n >= bound,
        }[op]

        def compared(value: Any) -> bool:
            number = _as_number(value)
            return number is not None and compare(number)

        return compared
    if ".." in text:
        low, high = (_number(part, where) for part in text.split("..", 1))
        return lambda value: (number := _as_number(value)) is not None and low <= number <= high
    options = [option.strip() for option in text.split("|")]

    def equals(value: Any) -> bool:
        if isinstance(value, list):  # tags: any of them
            return any(str(item) in options for item in value)
        number = _as_number(value)
        return str(value) in options or (
            number is not None and any(_as_number(o) == number for o in options)
        )

    return equals


def parse(query: str, *, where: str = "joins.query") -> list[Condition]:
    """The conditions of ``query``; ``ValueError`` naming what is wrong."""
    conditions = []
    for part in filter(None, (p.strip() for p in query.split(","))):
        field, sep, expression = part.partition(":")
        if not sep or not expression.strip():
            raise ValueError(f"{where}: `{part}` is not field:value")
        conditions.append(Condition(_check_field(field.strip(), where), _test(expression, where)))
    return conditions


def value_of(record: Record, field: str) -> Any:
    head, _, tail = field.partition(".")
    if not tail:
        return record.get(head)
    section = record.get(head) or {}
    return section.get(tail) if isinstance(section, Mapping) else None


def matches(conditions: Sequence[Condition], record: Record) -> bool:
    return all(c.test(value_of(record, c.field)) for c in conditions)


def sort_key(sort: str | None, *, where: str = "joins.sort") -> Callable[[Record], Any]:
    """A key for ``sorted``: each field ascending or, with ``-``, descending; missing last."""
    order = []
    for part in filter(None, (p.strip() for p in (sort or "").split(","))):
        descending = part.startswith("-")
        order.append((_check_field(part.lstrip("-+"), where), descending))

    def key(record: Record) -> tuple[Any, ...]:
        parts: list[Any] = []
        for field, descending in order:
            value = value_of(record, field)
            number = _as_number(value)
            if number is not None:
                parts.append((0, -number if descending else number, ""))
            elif value is None:
                parts.append((2, 0.0, ""))
            else:
                parts.append((1, 0.0, str(value)))  # text: ascending only
        return tuple(parts)

    return key


def fields(query: str, sort: str | None) -> set[str]:
    """The fields a join reads (to know whether it needs metrics)."""
    named = {part.partition(":")[0].strip() for part in query.split(",") if part.strip()}
    named |= {part.strip().lstrip("-+") for part in (sort or "").split(",") if part.strip()}
    return named
