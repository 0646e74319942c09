"""A search space's params as Optuna distributions, and trial params to job values and back.

``params`` is ``search_space["params"]``: each param is plain JSON in the spec library's
spelling (``{"kind": "uniform", "low": 0, "high": 1}``). What Optuna samples:

* ``choice``/``pchoice``: a categorical over the *indices* of the values, so ``1``, ``1.0`` and
  ``true`` stay distinct and dicts or lists are fine; ``pchoice`` leaves out values of
  probability 0 and otherwise ignores the probabilities.
* ``range`` of ints: ``Int(start, last, step)``; the other discrete kinds (a float ``range``,
  ``linspace``, ``logspace``, ``geomspace``, ``daterange``, ``datetimerange``): ``Int`` over
  the indices of their values (see :mod:`grids`).
* ``uniform``: ``Float(low, high)``; ``loguniform``: ``Float(e^low, e^high, log)`` (its bounds
  are natural-log exponents); ``normal``: ``Float(loc - 3 scale, loc + 3 scale)``;
  ``lognormal``: ``Float(e^(loc - 3 scale), e^(loc + 3 scale), log)``.
* ``quniform``/``qnormal``: ``Int`` over ``k`` for the value ``k * q`` (``k`` from
  ``round(low / q)`` to ``round(high / q)``, as the spec library rounds);
  ``qloguniform``/``qlognormal``: the log ``Float`` above, quantized to ``round(x / q) * q``.

:func:`decode` gives the values a job receives (JSON-serialisable) and :func:`encode` the
trial params back from them, so a trial can be rebuilt from stored values after a restart.
"""

from __future__ import annotations

import copy
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)

from axonal_optimization.domain import grids

__all__ = ["Params", "approximations", "decode", "distributions", "encode"]

Params = Mapping[str, Mapping[str, Any]]
"""``search_space["params"]``: name -> the param's JSON."""

_SIGMAS = 3  # normals are searched within loc ± 3 scale


@dataclass(frozen=True)
class _Space:
    """One param: its distribution, and how a trial's value maps to the job's and back."""

    distribution: BaseDistribution
    decode: Callable[[Any], Any]
    encode: Callable[[Any], Any]


def _number(value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        raise ValueError(f"{value!r} is not a number")
    return float(value)


def _within(value: Any, low: float, high: float) -> float:
    number = _number(value)
    if not low <= number <= high:
        raise ValueError(f"{value!r} is not within [{low:g}, {high:g}]")
    return number


def _choice(param: Mapping[str, Any]) -> _Space:
    values: list[Any] = param["values"]
    probabilities = param.get("probabilities") or [1.0] * len(values)
    indices = [i for i, p in enumerate(probabilities) if p > 0]
    keys = {i: json.dumps(values[i], sort_keys=True) for i in indices}

    def encode(value: Any) -> int:
        key = json.dumps(value, sort_keys=True)
        for index in indices:
            if keys[index] == key:
                return index
        raise ValueError(f"{value!r} is not one of the values")

    return _Space(CategoricalDistribution(indices), lambda i: copy.deepcopy(values[i]), encode)


def _grid(param: Mapping[str, Any]) -> _Space:
    count = grids.size(param)

    def encode(value: Any) -> int:
        index = grids.index_of(param, value)
        if index is None or isinstance(value, bool):
            raise ValueError(f"{value!r} is not one of the {count} values")
        return index

    if grids.int_range(param):
        start, step = param["start"], param["step"]
        last = start + (count - 1) * step
        return _Space(
            IntDistribution(start, last, step=step),
            int,
            lambda value: start + encode(value) * step,
        )
    return _Space(IntDistribution(0, count - 1), lambda i: grids.value_at(param, i), encode)


def _float(low: float, high: float, *, log: bool = False) -> _Space:
    return _Space(FloatDistribution(low, high, log=log), float, lambda v: _within(v, low, high))


def _quantized(low: float, high: float, q: float) -> _Space:
    """``k * q`` for ``k`` in ``round(low / q)..round(high / q)``."""
    k_low, k_high = round(low / q), round(high / q)

    def encode(value: Any) -> int:
        k = round(_number(value) / q)
        if not k_low <= k <= k_high or not math.isclose(k * q, value, abs_tol=q * 1e-9):
            raise ValueError(f"{value!r} is not a multiple of {q:g} within the bounds")
        return k

    return _Space(IntDistribution(k_low, k_high), lambda k: float(k * q), encode)


def _log_quantized(low: float, high: float, q: float) -> _Space:
    """Log-uniform on ``[low, high]``, then ``round(x / q) * q``; ``encode`` clamps the
    quantized value into the bounds, which quantizes back to the same value."""

    def decode(x: float) -> float:
        return float(round(x / q) * q)

    def encode(value: Any) -> float:
        quantized = decode(_number(value))
        clamped = min(max(quantized, low), high)
        if not math.isclose(quantized, value, abs_tol=q * 1e-9) or decode(clamped) != quantized:
            raise ValueError(f"{value!r} is not a multiple of {q:g} within the bounds")
        return clamped

    return _Space(FloatDistribution(low, high, log=True), decode, encode)


_CONTINUOUS = frozenset(
    {
        "uniform",
        "quniform",
        "loguniform",
        "qloguniform",
        "normal",
        "qnormal",
        "lognormal",
        "qlognormal",
    }
)


def _bounds(param: Mapping[str, Any]) -> tuple[float, float]:
    """The searched interval of a continuous kind (log kinds: in values, not exponents)."""
    kind = param["kind"]
    if kind.endswith("uniform"):
        low, high = param["low"], param["high"]
    else:
        low = param["loc"] - _SIGMAS * param["scale"]
        high = param["loc"] + _SIGMAS * param["scale"]
    if kind.endswith(("loguniform", "lognormal")):
        return math.exp(low), math.exp(high)
    return float(low), float(high)


def _space(param: Mapping[str, Any]) -> _Space:
    kind = param["kind"]
    if kind in ("choice", "pchoice"):
        return _choice(param)
    if kind in grids.SPACED:
        return _grid(param)
    if kind not in _CONTINUOUS:
        raise ValueError(f"unknown kind `{kind}`")
    low, high = _bounds(param)
    if "q" not in param:
        return _float(low, high, log=kind.startswith("log"))
    if kind in ("quniform", "qnormal"):
        return _quantized(low, high, param["q"])
    return _log_quantized(low, high, param["q"])


def _spaces(params: Params) -> dict[str, _Space]:
    spaces = {}
    for name, param in params.items():
        try:
            spaces[name] = _space(param)
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"params.{name}: cannot search {dict(param)!r}: {exc}") from None
    return spaces


def distributions(params: Params) -> dict[str, BaseDistribution]:
    """The Optuna distribution of each param, in the params' order."""
    return {name: space.distribution for name, space in _spaces(params).items()}


def decode(params: Params, trial_params: Mapping[str, Any]) -> dict[str, Any]:
    """The values a trial's job receives, from the trial's params (Optuna's values)."""
    return {name: space.decode(trial_params[name]) for name, space in _spaces(params).items()}


def encode(params: Params, values: Mapping[str, Any]) -> dict[str, Any]:
    """The trial params (Optuna's values) that :func:`decode` turns into ``values``.

    Raises ``ValueError`` naming the param when a value is missing or not in its space.
    """
    encoded = {}
    for name, space in _spaces(params).items():
        if name not in values:
            raise ValueError(f"params.{name}: no value")
        try:
            encoded[name] = space.encode(values[name])
        except (TypeError, ValueError, ArithmeticError) as exc:
            raise ValueError(f"params.{name}: {exc}") from None
    return encoded


def _approximation(param: Mapping[str, Any]) -> str | None:
    kind = param["kind"]
    if kind == "pchoice":
        return "pchoice is searched as a choice: its probabilities are not used"
    if kind in ("logspace", "geomspace"):
        return f"{kind} is searched by the index of its {param['num']} values (no log grid)"
    if kind in ("daterange", "datetimerange"):
        return f"{kind} is searched by the index of its {grids.size(param)} values"
    if kind == "qloguniform":
        return f"qloguniform is sampled log-uniform then quantized to {param['q']:g}"
    if kind not in ("normal", "qnormal", "lognormal", "qlognormal"):
        return None
    low, high = _bounds(param)
    log = "log" in kind
    how = "log-uniformly within exp(loc ± 3·scale)" if log else "uniformly within loc ± 3·scale"
    step = f", quantized to {param['q']:g}" if "q" in param else ""
    return f"{kind} is searched {how} = [{low:.6g}, {high:.6g}]{step}, without its prior"


def approximations(search_space: Mapping[str, Any]) -> list[str]:
    """One warning per param whose kind Optuna only approximates, naming the param."""
    notes = []
    for name, param in (search_space.get("params") or {}).items():
        note = _approximation(param)
        if note is not None:
            notes.append(f"params.{name}: {note}")
    return notes
