"""The values of the discrete spaced kinds, computed exactly as ``axonal_spec`` computes them.

A param is its search-space JSON (``{"kind": "linspace", "start": 0, "stop": 1, "num": 5}``).
``range`` is ``[start, stop)`` by ``step``; ``linspace`` includes both ends; ``logspace`` is
``base ** linspace``; ``geomspace`` a geometric progression; ``daterange`` steps in days and
``datetimerange`` in seconds, both ``[start, stop)``, their values ISO strings. The formulas
mirror the spec library's so a grid search and an adaptive one give a job the same values.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import date, datetime, timedelta
from typing import Any

__all__ = ["SPACED", "index_of", "int_range", "size", "value_at"]

SPACED = frozenset({"range", "linspace", "logspace", "geomspace", "daterange", "datetimerange"})
"""The discrete kinds whose values are computed from a few numbers (not listed)."""

_EPSILON = 1e-9  # as in axonal_spec: (1.3 - 1) / 0.1 lands a hair above 3
_MICRO = timedelta(microseconds=1)

Param = Mapping[str, Any]


def int_range(param: Param) -> bool:
    """Whether ``param`` is a ``range`` of ints only (its values are ints)."""
    return param["kind"] == "range" and all(
        isinstance(param[k], int) and not isinstance(param[k], bool)
        for k in ("start", "stop", "step")
    )


def _step(param: Param) -> timedelta:
    return timedelta(seconds=param["step"])


def size(param: Param) -> int:
    """How many values ``param`` enumerates."""
    kind = param["kind"]
    if kind == "range":
        start, stop, step = param["start"], param["stop"], param["step"]
        if int_range(param):
            return len(range(start, stop, step))
        return max(0, math.ceil(float((stop - start) / step) - _EPSILON))
    if kind in ("linspace", "logspace", "geomspace"):
        return int(param["num"])
    if kind == "daterange":
        days = (date.fromisoformat(param["stop"]) - date.fromisoformat(param["start"])).days
        return len(range(0, days, param["step"]))
    if kind == "datetimerange":
        span = datetime.fromisoformat(param["stop"]) - datetime.fromisoformat(param["start"])
        return len(range(0, span // _MICRO, _step(param) // _MICRO))
    raise ValueError(f"`{kind}` is not a spaced kind")


def _linspace(param: Param, index: int) -> float:
    start, stop, num = param["start"], param["stop"], param["num"]
    if index == 0:
        return float(start)
    if index == num - 1:
        return float(stop)
    return float(start + index * (stop - start) / (num - 1))


def _geomspace(param: Param, index: int) -> float:
    start, stop, num = param["start"], param["stop"], param["num"]
    if index == 0:
        return float(start)
    if index == num - 1:
        return float(stop)
    sign = -1.0 if start < 0 else 1.0
    low, high = math.log10(abs(start)), math.log10(abs(stop))
    return sign * float(10.0 ** (low + index * (high - low) / (num - 1)))


def value_at(param: Param, index: int) -> Any:
    """The ``index``-th value of ``param`` (``0 <= index < size(param)``)."""
    kind = param["kind"]
    if kind == "range":
        return param["start"] + index * param["step"]
    if kind == "linspace":
        return _linspace(param, index)
    if kind == "logspace":
        return float(param["base"] ** _linspace(param, index))
    if kind == "geomspace":
        return _geomspace(param, index)
    if kind == "daterange":
        day = date.fromisoformat(param["start"]) + timedelta(days=index * param["step"])
        return day.isoformat()
    if kind == "datetimerange":
        return (datetime.fromisoformat(param["start"]) + index * _step(param)).isoformat()
    raise ValueError(f"`{kind}` is not a spaced kind")


def _guess(param: Param, value: Any) -> float:
    """About where ``value`` sits in ``param``'s values (the inverse of ``value_at``)."""
    kind = param["kind"]
    start, stop = param["start"], param["stop"]
    if kind == "range":
        return float((value - start) / param["step"])
    last = param.get("num", 1) - 1
    if kind == "linspace":
        return float((value - start) / (stop - start) * last)
    if kind == "logspace":
        base = param["base"]
        exponent = 0.0 if base == 1 else math.log(value) / math.log(base)
        return float((exponent - start) / (stop - start) * last)
    if kind == "geomspace":
        low, high = math.log10(abs(start)), math.log10(abs(stop))
        return float((math.log10(abs(value)) - low) / (high - low) * last)
    if kind == "daterange":
        days = (date.fromisoformat(value) - date.fromisoformat(start)).days
        return float(days / param["step"])
    offset = datetime.fromisoformat(value) - datetime.fromisoformat(start)
    return float(offset / _step(param))


def index_of(param: Param, value: Any) -> int | None:
    """The index of ``value`` among ``param``'s values, or ``None`` when it is not one."""
    try:
        guess = round(_guess(param, value))
    except (TypeError, ValueError, ArithmeticError):
        return None
    if param["kind"] in ("daterange", "datetimerange"):
        parse = date.fromisoformat if param["kind"] == "daterange" else datetime.fromisoformat
        value = parse(value).isoformat()
    count = size(param)
    for index in (guess, guess - 1, guess + 1):
        if 0 <= index < count and value_at(param, index) == value:
            return index
    return None
