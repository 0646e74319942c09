"""The ``value`` of each hyperparameter kind, normalised to named fields.

Every value may be written three ways (as Polyaxon accepts): a ``"a:b:c"`` string, an
``[a, b, c]`` list or a ``{start, stop, step}`` mapping. They all parse to the same model and
dump in the mapping form. Discrete spaces know their ``size()`` and compute the ``i``-th value
without materialising the others, so a huge ``range`` costs nothing until it is expanded.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta
from typing import Any, ClassVar, Self

from pydantic import model_validator

from axonal_spec.base import SpecModel
from axonal_spec.matrix._numbers import Number, PositiveInt, to_number

__all__ = [
    "DateRangeValue",
    "DateTimeRangeValue",
    "GeomSpaceValue",
    "LinSpaceValue",
    "LogSpaceValue",
    "NormalValue",
    "QNormalValue",
    "QUniformValue",
    "RangeValue",
    "UniformValue",
]

# ``float`` arithmetic on ``(stop - start) / step`` can land a hair above an integer
# (``(1.3 - 1) / 0.1 == 3.0000000000000004``); a range never includes ``stop``.
_EPSILON = 1e-9


class _Positional(SpecModel):
    """A value model that also accepts its fields positionally (string or list)."""

    _fields: ClassVar[tuple[str, ...]]
    _optional: ClassVar[int] = 0  # how many trailing fields may be left out

    @classmethod
    def _split(cls, text: str) -> list[str]:
        return [part.strip() for part in text.split(":")]

    @classmethod
    def _form(cls) -> str:
        return ":".join(cls._fields)

    @classmethod
    def _coerce(cls, data: dict[str, Any]) -> dict[str, Any]:
        """Adjust the mapping form before field validation (hook for subclasses)."""
        return data

    @model_validator(mode="before")
    @classmethod
    def _from_positional(cls, data: Any) -> Any:
        if isinstance(data, str):
            parts: list[Any] = cls._split(data)
        elif isinstance(data, list | tuple):
            parts = list(data)
        else:
            return cls._coerce(data) if isinstance(data, dict) else data
        least = len(cls._fields) - cls._optional
        if not least <= len(parts) <= len(cls._fields):
            raise ValueError(
                f"expected `{cls._form()}`, a list [{', '.join(cls._fields)}] or a mapping "
                f"{{{', '.join(cls._fields)}}}; got {len(parts)} value(s)"
            )
        return cls._coerce(dict(zip(cls._fields, parts, strict=False)))


def _check_order(start: Any, stop: Any) -> None:
    if not start < stop:
        raise ValueError(f"stop ({stop}) must be greater than start ({start})")


class RangeValue(_Positional):
    """``[start, stop)`` by ``step`` (ints stay ints)."""

    _fields: ClassVar[tuple[str, ...]] = ("start", "stop", "step")
    start: Number
    stop: Number
    step: Number

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.step <= 0:
            raise ValueError(f"step must be > 0, got {self.step}")
        _check_order(self.start, self.stop)
        return self

    def _all_ints(self) -> bool:
        return all(isinstance(v, int) for v in (self.start, self.stop, self.step))

    def size(self) -> int:
        if self._all_ints():
            return len(range(int(self.start), int(self.stop), int(self.step)))
        return max(0, math.ceil((self.stop - self.start) / self.step - _EPSILON))

    def at(self, index: int) -> int | float:
        return self.start + index * self.step


class LinSpaceValue(_Positional):
    """``num`` evenly spaced values from ``start`` to ``stop``, both included."""

    _fields: ClassVar[tuple[str, ...]] = ("start", "stop", "num")
    start: Number
    stop: Number
    num: PositiveInt

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_order(self.start, self.stop)
        return self

    def size(self) -> int:
        return self.num

    def at(self, index: int) -> float:
        if index == 0:
            return float(self.start)
        if index == self.num - 1:
            return float(self.stop)
        return self.start + index * (self.stop - self.start) / (self.num - 1)


class LogSpaceValue(LinSpaceValue):
    """``base ** x`` for ``x`` in ``linspace(start, stop, num)``; ``base`` defaults to 10."""

    _fields: ClassVar[tuple[str, ...]] = ("start", "stop", "num", "base")
    _optional = 1
    base: Number | None = None

    @model_validator(mode="after")
    def _check_base(self) -> Self:
        if self.base is not None and self.base <= 0:
            raise ValueError(f"base must be > 0, got {self.base}")
        return self

    @property
    def effective_base(self) -> float:
        return 10.0 if self.base is None else float(self.base)

    def at(self, index: int) -> float:
        return float(self.effective_base ** super().at(index))


class GeomSpaceValue(LinSpaceValue):
    """``num`` values from ``start`` to ``stop`` spaced evenly on a log scale (a geometric
    progression, like ``numpy.geomspace``); both ends must be non-zero and of the same sign."""

    @model_validator(mode="after")
    def _check_signs(self) -> Self:
        if self.start == 0 or self.stop == 0 or (self.start < 0) != (self.stop < 0):
            raise ValueError("start and stop must be non-zero and of the same sign")
        return self

    def at(self, index: int) -> float:
        if index == 0:
            return float(self.start)
        if index == self.num - 1:
            return float(self.stop)
        sign = -1.0 if self.start < 0 else 1.0
        low, high = math.log10(abs(self.start)), math.log10(abs(self.stop))
        return sign * float(10.0 ** (low + index * (high - low) / (self.num - 1)))


class DateRangeValue(_Positional):
    """Dates in ``[start, stop)`` every ``step`` days; values are ISO dates (``2019-06-24``)."""

    _fields: ClassVar[tuple[str, ...]] = ("start", "stop", "step")
    start: date
    stop: date
    step: PositiveInt

    @model_validator(mode="after")
    def _check(self) -> Self:
        _check_order(self.start, self.stop)
        return self

    def size(self) -> int:
        return len(range(0, (self.stop - self.start).days, self.step))

    def at(self, index: int) -> str:
        return (self.start + timedelta(days=index * self.step)).isoformat()


# A datetime contains ``:``; the stop is where a new ``YYYY-MM-DD`` begins after a ``:``.
_DATETIME_TRIPLET = re.compile(r"^(?P<start>.+?):(?P<stop>\d{4}-\d{2}-\d{2}.*):(?P<step>[^:]+)$")


def _seconds(value: Any) -> Any:
    if isinstance(value, timedelta):
        return value
    try:
        return timedelta(seconds=to_number(value))
    except ValueError:
        return value  # let pydantic try ISO 8601 durations (``PT1H``)


class DateTimeRangeValue(_Positional):
    """Datetimes in ``[start, stop)`` every ``step`` (seconds, or an ISO 8601 duration);
    values are ISO datetimes. The string form is ``"<start>:<stop>:<seconds>"``."""

    _fields: ClassVar[tuple[str, ...]] = ("start", "stop", "step")
    start: datetime
    stop: datetime
    step: timedelta

    @classmethod
    def _split(cls, text: str) -> list[str]:
        match = _DATETIME_TRIPLET.match(text.strip())
        if match is None:
            return [text]  # reported as a wrong number of values
        return [match["start"].strip(), match["stop"].strip(), match["step"].strip()]

    @classmethod
    def _coerce(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {**data, "step": _seconds(data["step"])} if "step" in data else data

    @model_validator(mode="after")
    def _check(self) -> Self:
        if (self.start.tzinfo is None) != (self.stop.tzinfo is None):
            raise ValueError("start and stop must both have a time zone, or neither")
        if self.step <= timedelta(0):
            raise ValueError(f"step must be > 0, got {self.step}")
        _check_order(self.start, self.stop)
        return self

    def size(self) -> int:
        micro = timedelta(microseconds=1)
        return len(range(0, (self.stop - self.start) // micro, self.step // micro))

    def at(self, index: int) -> str:
        return (self.start + index * self.step).isoformat()


class UniformValue(_Positional):
    """``[low, high)``; for ``loguniform`` these are exponents (``exp(uniform(low, high))``)."""

    _fields: ClassVar[tuple[str, ...]] = ("low", "high")
    low: Number
    high: Number

    @model_validator(mode="after")
    def _check(self) -> Self:
        if not self.low < self.high:
            raise ValueError(f"high ({self.high}) must be greater than low ({self.low})")
        return self


class QUniformValue(UniformValue):
    """``UniformValue`` quantised to multiples of ``q``."""

    _fields: ClassVar[tuple[str, ...]] = ("low", "high", "q")
    q: Number

    @model_validator(mode="after")
    def _check_q(self) -> Self:
        if self.q <= 0:
            raise ValueError(f"q must be > 0, got {self.q}")
        return self


class NormalValue(_Positional):
    """A Gaussian with mean ``loc`` and standard deviation ``scale`` (> 0)."""

    _fields: ClassVar[tuple[str, ...]] = ("loc", "scale")
    loc: Number
    scale: Number

    @model_validator(mode="after")
    def _check(self) -> Self:
        if self.scale <= 0:
            raise ValueError(f"scale must be > 0, got {self.scale}")
        return self


class QNormalValue(NormalValue):
    """``NormalValue`` quantised to multiples of ``q``."""

    _fields: ClassVar[tuple[str, ...]] = ("loc", "scale", "q")
    q: Number

    @model_validator(mode="after")
    def _check_q(self) -> Self:
        if self.q <= 0:
            raise ValueError(f"q must be > 0, got {self.q}")
        return self
