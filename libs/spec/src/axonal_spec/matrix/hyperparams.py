"""The 16 hyperparameter kinds: ``{kind, value}`` models in one discriminated union.

Discrete kinds (``choice``, ``pchoice``, ``range``, ``linspace``, ``logspace``, ``geomspace``,
``daterange``, ``datetimerange``) enumerate their ``values()``; every kind can ``sample(rng)``
from a seeded :class:`random.Random`, and ``to_search_space()`` describes it as plain JSON for the
optimization service. Semantics follow Polyaxon (numpy) where they are defined there:

* ``range`` is ``[start, stop)`` by ``step``; ``linspace`` includes both ends; ``logspace`` is
  ``base ** linspace`` (``base`` 10 unless given); ``geomspace`` is a geometric progression.
* ``daterange`` steps in days and ``datetimerange`` in seconds, both ``[start, stop)``; their
  values are ISO-8601 strings (JSON-native, as params are written in files).
* the eight distributions live in :mod:`axonal_spec.matrix.distributions`.
* ``pchoice``: each probability is in ``[0, 1)`` and they sum to at most 1 (exactly 1 is fine;
  a float tolerance of 1e-9 absorbs ``0.1 + 0.2 + 0.7``), as Polyaxon 2.18 checks
  (``PChoice.validate`` and ``validate_pchoice``). When they sum to less than 1 they are
  sampled as relative weights (Polyaxon's ``numpy.multinomial`` would instead give the missing
  mass to the last outcome). ``pchoice`` counts as a distribution (Polyaxon's
  ``is_distribution``), so grid search and bayes reject it.
"""

from __future__ import annotations

import math
import random
from typing import Annotated, Any, Literal

from pydantic import Field, Tag, field_validator

from axonal_spec.matrix._base import HyperParamBase
from axonal_spec.matrix._numbers import to_float
from axonal_spec.matrix._spaces import (
    DateRangeValue,
    DateTimeRangeValue,
    GeomSpaceValue,
    LinSpaceValue,
    LogSpaceValue,
    RangeValue,
)
from axonal_spec.matrix._union import kind_discriminator
from axonal_spec.matrix.distributions import (
    LogNormal,
    LogUniform,
    Normal,
    QLogNormal,
    QLogUniform,
    QNormal,
    QUniform,
    Uniform,
)

__all__ = [
    "HYPERPARAM_KINDS",
    "Choice",
    "DateRange",
    "DateTimeRange",
    "GeomSpace",
    "HyperParam",
    "HyperParamBase",
    "LinSpace",
    "LogNormal",
    "LogSpace",
    "LogUniform",
    "Normal",
    "PChoice",
    "QLogNormal",
    "QLogUniform",
    "QNormal",
    "QUniform",
    "Range",
    "Uniform",
]

_PROBABILITY_TOLERANCE = 1e-9


class Choice(HyperParamBase):
    """One of the listed values."""

    kind: Literal["choice"] = "choice"
    value: list[Any] = Field(min_length=1)

    def size(self) -> int:
        return len(self.value)

    def value_at(self, index: int) -> Any:
        return self.value[index]

    def to_search_space(self) -> dict[str, Any]:
        return {"kind": self.kind, "values": list(self.value)}


class PChoice(HyperParamBase):
    """One of the listed values, each with a probability: ``[[value, p], ...]``."""

    is_distribution = True

    kind: Literal["pchoice"] = "pchoice"
    value: list[tuple[Any, float]] = Field(min_length=1)

    @field_validator("value", mode="before")
    @classmethod
    def _pairs(cls, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return value
        pairs = []
        for item in value:
            if not isinstance(item, list | tuple) or len(item) != 2:
                raise ValueError(f"expected [value, probability] pairs, got {item!r}")
            pairs.append((item[0], to_float(item[1])))
        probabilities = [p for _, p in pairs]
        for option, p in pairs:
            if not 0 <= p < 1:
                raise ValueError(f"the probability of {option!r} must be in [0, 1), got {p}")
        total = math.fsum(probabilities)
        if total > 1 + _PROBABILITY_TOLERANCE:
            raise ValueError(f"the probabilities must sum to at most 1, they sum to {total:g}")
        if total <= 0:
            raise ValueError("at least one probability must be greater than 0")
        return pairs

    def size(self) -> int:
        return len(self.value)

    def value_at(self, index: int) -> Any:
        return self.value[index][0]

    def sample(self, rng: random.Random) -> Any:
        options = [option for option, _ in self.value]
        return rng.choices(options, weights=[p for _, p in self.value])[0]

    def to_search_space(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "values": [option for option, _ in self.value],
            "probabilities": [p for _, p in self.value],
        }


class _Spaced(HyperParamBase):
    """A discrete kind whose values come from a ``*Value`` model's ``size``/``at``."""

    value: Any

    def size(self) -> int:
        return int(self.value.size())

    def value_at(self, index: int) -> Any:
        return self.value.at(index)


class Range(_Spaced):
    """``[start, stop)`` by ``step``: ``"1:10:2"``, ``[1, 10, 2]``, ``{start, stop, step}``."""

    kind: Literal["range"] = "range"
    value: RangeValue


class LinSpace(_Spaced):
    """``num`` values evenly spaced from ``start`` to ``stop`` inclusive."""

    kind: Literal["linspace"] = "linspace"
    value: LinSpaceValue


class LogSpace(_Spaced):
    """``base ** linspace(start, stop, num)``: ``"0:3:4"`` or ``"0:3:4:2"`` (base 2)."""

    kind: Literal["logspace"] = "logspace"
    value: LogSpaceValue

    def to_search_space(self) -> dict[str, Any]:
        return {**super().to_search_space(), "base": self.value.effective_base}


class GeomSpace(_Spaced):
    """``num`` values from ``start`` to ``stop`` in a geometric progression."""

    kind: Literal["geomspace"] = "geomspace"
    value: GeomSpaceValue


class DateRange(_Spaced):
    """ISO dates in ``[start, stop)`` every ``step`` days."""

    kind: Literal["daterange"] = "daterange"
    value: DateRangeValue


class DateTimeRange(_Spaced):
    """ISO datetimes in ``[start, stop)`` every ``step`` seconds."""

    kind: Literal["datetimerange"] = "datetimerange"
    value: DateTimeRangeValue

    def to_search_space(self) -> dict[str, Any]:
        space = super().to_search_space()
        return {**space, "step": self.value.step.total_seconds()}


HYPERPARAM_KINDS = (
    "choice",
    "pchoice",
    "range",
    "linspace",
    "logspace",
    "geomspace",
    "daterange",
    "datetimerange",
    "uniform",
    "quniform",
    "loguniform",
    "qloguniform",
    "normal",
    "qnormal",
    "lognormal",
    "qlognormal",
)

HyperParam = Annotated[
    Annotated[Choice, Tag("~choice")]
    | Annotated[PChoice, Tag("~pchoice")]
    | Annotated[Range, Tag("~range")]
    | Annotated[LinSpace, Tag("~linspace")]
    | Annotated[LogSpace, Tag("~logspace")]
    | Annotated[GeomSpace, Tag("~geomspace")]
    | Annotated[DateRange, Tag("~daterange")]
    | Annotated[DateTimeRange, Tag("~datetimerange")]
    | Annotated[Uniform, Tag("~uniform")]
    | Annotated[QUniform, Tag("~quniform")]
    | Annotated[LogUniform, Tag("~loguniform")]
    | Annotated[QLogUniform, Tag("~qloguniform")]
    | Annotated[Normal, Tag("~normal")]
    | Annotated[QNormal, Tag("~qnormal")]
    | Annotated[LogNormal, Tag("~lognormal")]
    | Annotated[QLogNormal, Tag("~qlognormal")],
    kind_discriminator("param", HYPERPARAM_KINDS),
]
"""Any hyperparameter space, chosen by its ``kind``."""
