"""Lenient scalar types: numbers may be written as quoted strings when they convert cleanly.

``numRuns: "10"`` is 10 and ``kappa: "1.5"`` is 1.5, but ``numRuns: "ten"``, ``numRuns: 2.5``
and ``numRuns: true`` are rejected (a boolean is never a number here, unlike Python).
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import BeforeValidator, Field

__all__ = [
    "LenientFloat",
    "LenientInt",
    "Number",
    "PositiveInt",
    "lower",
    "to_float",
    "to_int",
    "to_number",
]


def to_number(value: Any) -> int | float:
    """``3`` -> 3, ``"3"`` -> 3, ``" 0.5 "`` -> 0.5, ``2.0`` -> 2.0; anything else raises."""
    if isinstance(value, bool):
        raise ValueError(f"expected a number, got the boolean {value}")
    if isinstance(value, int | float):
        return value
    if isinstance(value, str):
        text = value.strip()
        try:
            return int(text)
        except ValueError:
            pass
        try:
            return float(text)
        except ValueError:
            pass
    raise ValueError(f"expected a number, got {value!r}")


def to_int(value: Any) -> int:
    """A number without a fractional part (``"10"``, ``10.0``) as an ``int``."""
    number = to_number(value)
    if isinstance(number, float):
        if not number.is_integer():
            raise ValueError(f"expected an integer, got {value!r}")
        return int(number)
    return number


def to_float(value: Any) -> float:
    """Any number (or numeric string) as a ``float``."""
    return float(to_number(value))


def lower(value: Any) -> Any:
    """Enum-like words are matched case-insensitively (``MINIMIZE`` == ``minimize``)."""
    return value.strip().lower() if isinstance(value, str) else value


Number = Annotated[int | float, BeforeValidator(to_number)]
LenientInt = Annotated[int, BeforeValidator(to_int)]
LenientFloat = Annotated[float, BeforeValidator(to_float)]
PositiveInt = Annotated[int, BeforeValidator(to_int), Field(ge=1)]
