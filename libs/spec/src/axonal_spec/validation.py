"""The V1Validation rules of an input/output, applied to an already converted value.

Number rules (``gt ge lt le multipleOf minDigits maxDigits decimalPlaces``), string rules
(``regex minLength maxLength``) and ``options`` apply to the value, or to each element of a
list / each value of a dict. ``contains``/``excludes`` test membership in a list or dict
(values), or a substring of a string (a list of needles means all / none of them).
``minItems``/``maxItems`` count a list or dict; ``keys``/``containsKeys``/``excludesKeys``
check a dict's keys. Every failure is reported, each at its element's location.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from decimal import Decimal, InvalidOperation
from typing import Any

from axonal_spec.errors import Problem, SpecError, join_location

__all__ = ["RULES", "validate"]

RULES: tuple[str, ...] = (
    *("delay", "gt", "ge", "lt", "le", "multipleOf", "minDigits", "maxDigits", "decimalPlaces"),
    *("regex", "minLength", "maxLength", "contains", "excludes", "options", "minItems"),
    *("maxItems", "keys", "containsKeys", "excludesKeys"),
)

_SNAKE = {re.sub(r"([A-Z])", r"_\1", rule).lower(): rule for rule in RULES}


def validate(value: Any, validation: Mapping[str, Any], *, location: str) -> None:
    """Apply every rule of ``validation`` (camelCase or snake_case keys, ``None`` = unset).

    ``None`` values are not validated (whether they are allowed is the caller's check).
    Raises :class:`SpecError` listing every failed rule.
    """
    rules: dict[str, Any] = {}
    problems: list[Problem] = []
    for key, arg in validation.items():
        rule = _SNAKE.get(key, key)
        if rule not in RULES:
            problems.append(Problem(join_location(location, "validation"), f"unknown rule {key!r}"))
        elif arg is not None and rule != "delay":
            rules[rule] = arg
    if value is not None:
        _check_elements(value, rules, location, problems)
        _check_whole(value, rules, location, problems)
    if problems:
        raise SpecError(problems)


def _check_elements(value: Any, rules: dict[str, Any], loc: str, out: list[Problem]) -> None:
    if isinstance(value, list | tuple):
        elements = [(join_location(loc, i), v) for i, v in enumerate(value)]
    elif isinstance(value, Mapping):
        elements = [(join_location(loc, str(k)), v) for k, v in value.items()]
    else:
        elements = [(loc, value)]
    for where, element in elements:
        for rule, arg in rules.items():
            check = _ELEMENT_RULES.get(rule)
            if check is not None:
                message = _run(check, element, arg)
                if message:
                    out.append(Problem(where, f"{_show(element)} {message} ({rule})"))


def _check_whole(value: Any, rules: dict[str, Any], loc: str, out: list[Problem]) -> None:
    for rule, arg in rules.items():
        check = _WHOLE_RULES.get(rule)
        if check is not None:
            message = _run(check, value, arg)
            if message:
                out.append(Problem(loc, f"{_show(value)} {message} ({rule})"))


def _run(check: Callable[[Any, Any], str | None], value: Any, arg: Any) -> str | None:
    try:
        return check(value, arg)
    except TypeError:
        return f"cannot be checked against {arg!r}"


def _show(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_number(v: Any) -> bool:
    return isinstance(v, int | float) and not isinstance(v, bool)


def _decimal(v: Any) -> Decimal | None:
    if not _is_number(v):
        return None
    try:
        return Decimal(str(v))
    except InvalidOperation:  # pragma: no cover - str() of a number always parses
        return None


def _compare(op: str, words: str) -> Callable[[Any, Any], str | None]:
    tests: dict[str, Callable[[Any, Any], bool]] = {
        "gt": lambda a, b: a > b,
        "ge": lambda a, b: a >= b,
        "lt": lambda a, b: a < b,
        "le": lambda a, b: a <= b,
    }

    def check(v: Any, bound: Any) -> str | None:
        if not _is_number(v):
            return "is not a number"
        return None if tests[op](v, bound) else f"must be {words} {bound!r}"

    return check


def _multiple_of(v: Any, factor: Any) -> str | None:
    value, step = _decimal(v), _decimal(factor)
    if value is None:
        return "is not a number"
    if step is None or step == 0 or value % step != 0:
        return f"must be a multiple of {factor!r}"
    return None


def _digits(v: Any) -> tuple[int, int] | None:
    """(total digits without leading zeros, decimal places) of a number."""
    number = _decimal(v)
    if number is None:
        return None
    whole, _, fraction = format(abs(number), "f").partition(".")
    fraction = fraction.rstrip("0")
    return len(whole.lstrip("0")) + len(fraction), len(fraction)


def _min_digits(v: Any, n: Any) -> str | None:
    d = _digits(v)
    return "is not a number" if d is None else None if d[0] >= n else f"needs at least {n} digits"


def _max_digits(v: Any, n: Any) -> str | None:
    d = _digits(v)
    return "is not a number" if d is None else None if d[0] <= n else f"has more than {n} digits"


def _decimal_places(v: Any, n: Any) -> str | None:
    d = _digits(v)
    if d is None:
        return "is not a number"
    return None if d[1] <= n else f"has more than {n} decimal places"


def _regex(v: Any, pattern: Any) -> str | None:
    if not isinstance(v, str):
        return "is not a string"
    try:
        matched = re.match(str(pattern), v)
    except re.error as exc:
        return f"cannot be checked: invalid regex {pattern!r} ({exc})"
    return None if matched else f"does not match {pattern!r}"


def _min_length(v: Any, n: Any) -> str | None:
    if not isinstance(v, str):
        return "is not a string"
    return None if len(v) >= n else f"is shorter than {n} characters"


def _max_length(v: Any, n: Any) -> str | None:
    if not isinstance(v, str):
        return "is not a string"
    return None if len(v) <= n else f"is longer than {n} characters"


def _options(v: Any, options: Any) -> str | None:
    choices = options if isinstance(options, list | tuple | set) else [options]
    return None if v in choices else f"is not one of {list(choices)!r}"


def _needles(arg: Any) -> list[Any]:
    return list(arg) if isinstance(arg, list | tuple | set) else [arg]


def _present(value: Any, needle: Any) -> bool:
    if isinstance(value, str):
        return isinstance(needle, str) and needle in value
    if isinstance(value, Mapping):
        return needle in value.values()
    if isinstance(value, list | tuple):
        return needle in value
    return bool(value == needle)


def _contains(value: Any, arg: Any) -> str | None:
    missing = [n for n in _needles(arg) if not _present(value, n)]
    return f"must contain {missing[0]!r}" if missing else None


def _excludes(value: Any, arg: Any) -> str | None:
    found = [n for n in _needles(arg) if _present(value, n)]
    return f"must not contain {found[0]!r}" if found else None


def _sized(check: Callable[[int, int], bool], words: str) -> Callable[[Any, Any], str | None]:
    def run(value: Any, n: Any) -> str | None:
        if not isinstance(value, list | tuple | Mapping):
            return "is not a list or dict"
        return None if check(len(value), n) else f"must have {words} {n} items"

    return run


def _key_rule(rule: str) -> Callable[[Any, Any], str | None]:
    def run(value: Any, keys: Any) -> str | None:
        if not isinstance(value, Mapping):
            return "is not a dict"
        wanted = set(_needles(keys))
        if rule == "keys" and set(value) != wanted:
            return f"must have exactly the keys {sorted(wanted, key=str)!r}"
        if rule == "containsKeys" and not wanted <= set(value):
            return f"is missing the keys {sorted(wanted - set(value), key=str)!r}"
        if rule == "excludesKeys" and wanted & set(value):
            return f"must not have the keys {sorted(wanted & set(value), key=str)!r}"
        return None

    return run


_ELEMENT_RULES: dict[str, Callable[[Any, Any], str | None]] = {
    "gt": _compare("gt", "greater than"),
    "ge": _compare("ge", "greater than or equal to"),
    "lt": _compare("lt", "less than"),
    "le": _compare("le", "less than or equal to"),
    "multipleOf": _multiple_of,
    "minDigits": _min_digits,
    "maxDigits": _max_digits,
    "decimalPlaces": _decimal_places,
    "regex": _regex,
    "minLength": _min_length,
    "maxLength": _max_length,
    "options": _options,
}

_WHOLE_RULES: dict[str, Callable[[Any, Any], str | None]] = {
    "contains": _contains,
    "excludes": _excludes,
    "minItems": _sized(lambda size, n: size >= n, "at least"),
    "maxItems": _sized(lambda size, n: size <= n, "at most"),
    "keys": _key_rule("keys"),
    "containsKeys": _key_rule("containsKeys"),
    "excludesKeys": _key_rule("excludesKeys"),
}
