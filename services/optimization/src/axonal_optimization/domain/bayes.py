"""The ``bayes`` sampler: Polyaxon's Gaussian-process search (:mod:`gp`) as an Optuna sampler.

The first ``numInitialRuns`` trials (by number) are drawn at random; later ones maximise the
acquisition of a GP fitted to the complete trials. Each param becomes coordinates of the unit
cube: numbers scaled to ``[0, 1]`` between their bounds (log-scaled for log kinds, snapped
back to their step or grid); a ``choice`` of numbers by its values scaled between their
minimum and maximum, snapped to the nearest value (as Polyaxon does); any other ``choice`` one
coordinate per value (one-hot, the largest wins). The acquisition is maximised over that
continuous relaxation and the point snapped afterwards, as in Polyaxon.

Polyaxon suggests one point per iteration. Here several trials may run at once: a RUNNING
trial counts as a complete one with the worst value seen so far (a constant liar), so the
next suggestions move away from it. The study's direction decides what is best.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
from optuna.distributions import (
    BaseDistribution,
    CategoricalDistribution,
    FloatDistribution,
    IntDistribution,
)
from optuna.samplers import BaseSampler, RandomSampler
from optuna.study import Study, StudyDirection
from optuna.trial import FrozenTrial, TrialState

from axonal_optimization.domain import spaces
from axonal_optimization.domain.gp import Array, Utility, suggest

__all__ = ["BayesSampler", "Compute", "compute_inline"]

#: Runs :func:`~axonal_optimization.domain.gp.suggest` for ``(x, y, utility, seed)``: here,
#: or in another process (the service's, so that a fit never holds its event loop's GIL).
Compute = Callable[[Array, Array, Utility, int], Array]


def compute_inline(x: Array, y: Array, utility: Utility, seed: int) -> Array:
    """The GP's suggestion computed in this thread."""
    return suggest(x, y, utility, np.random.RandomState(seed))


class _Feature(Protocol):
    @property
    def width(self) -> int: ...

    def encode(self, value: Any) -> list[float]: ...

    def decode(self, unit: Array) -> Any: ...


@dataclass(frozen=True)
class _Numeric:
    """An int or float distribution scaled to ``[0, 1]`` (log-scaled when ``log``)."""

    low: float
    high: float
    log: bool
    step: int | None  # ints only
    width: int = 1

    def _scale(self, value: float) -> float:
        return math.log(value) if self.log else value

    def encode(self, value: Any) -> list[float]:
        if not self.low <= value <= self.high:
            raise ValueError(f"{value!r} is out of bounds")
        low, high = self._scale(self.low), self._scale(self.high)
        return [(self._scale(value) - low) / (high - low) if high > low else 0.5]

    def decode(self, unit: Array) -> Any:
        low, high = self._scale(self.low), self._scale(self.high)
        scaled = low + float(unit[0]) * (high - low)
        value = min(max(math.exp(scaled) if self.log else scaled, self.low), self.high)
        if self.step is None:
            return value
        steps = round((value - self.low) / self.step)
        return min(int(self.low) + steps * self.step, int(self.high))


@dataclass(frozen=True)
class _Ordered:
    """A choice of numbers: its values scaled between their minimum and maximum."""

    choices: tuple[Any, ...]
    positions: tuple[float, ...]
    width: int = 1

    def encode(self, value: Any) -> list[float]:
        return [self.positions[self.choices.index(value)]]

    def decode(self, unit: Array) -> Any:
        distances = [abs(position - float(unit[0])) for position in self.positions]
        return self.choices[distances.index(min(distances))]


@dataclass(frozen=True)
class _OneHot:
    """Any other choice: one coordinate per value."""

    choices: tuple[Any, ...]

    @property
    def width(self) -> int:
        return len(self.choices)

    def encode(self, value: Any) -> list[float]:
        index = self.choices.index(value)
        return [1.0 if i == index else 0.0 for i in range(self.width)]

    def decode(self, unit: Array) -> Any:
        return self.choices[int(np.argmax(unit))]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _feature(param: Mapping[str, Any], distribution: BaseDistribution) -> _Feature:
    if isinstance(distribution, CategoricalDistribution):
        values = [param["values"][index] for index in distribution.choices]
        if not all(_is_number(value) for value in values):
            return _OneHot(distribution.choices)
        low, high = min(values), max(values)
        positions = tuple((v - low) / (high - low) if high > low else 0.5 for v in values)
        return _Ordered(distribution.choices, positions)
    if isinstance(distribution, IntDistribution):
        return _Numeric(distribution.low, distribution.high, distribution.log, distribution.step)
    if isinstance(distribution, FloatDistribution):
        return _Numeric(distribution.low, distribution.high, distribution.log, None)
    raise TypeError(f"no GP feature for {distribution!r}")


class BayesSampler(BaseSampler):
    """Polyaxon's ``bayes`` for a search space: random for the first ``numInitialRuns``
    trials, then the GP of ``utilityFunction``; ``seed`` makes it reproducible."""

    def __init__(
        self,
        search_space: Mapping[str, Any],
        *,
        seed: int | None = None,
        compute: Compute = compute_inline,
    ) -> None:
        params = search_space["params"]
        self._compute = compute
        self._space = spaces.distributions(params)
        self._features = {name: _feature(params[name], d) for name, d in self._space.items()}
        self._utility = Utility.from_json(search_space.get("utilityFunction"))
        self._initial = int(search_space["numInitialRuns"])
        self._rng = np.random.RandomState(seed)
        self._random = RandomSampler(seed=seed)

    def reseed_rng(self) -> None:
        self._rng = np.random.RandomState()
        self._random.reseed_rng()

    def infer_relative_search_space(
        self, study: Study, trial: FrozenTrial
    ) -> dict[str, BaseDistribution]:
        return {} if trial.number < self._initial else dict(self._space)

    def _point(self, params: Mapping[str, Any]) -> list[float] | None:
        """The trial's point in the unit cube, or ``None`` if it does not fit the space."""
        point: list[float] = []
        try:
            for name, feature in self._features.items():
                point += feature.encode(params[name])
        except (KeyError, ValueError, TypeError):
            return None
        return point

    def _observations(self, study: Study) -> tuple[list[list[float]], list[float]]:
        sign = -1.0 if study.direction == StudyDirection.MINIMIZE else 1.0
        x, y = [], []
        for trial in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
            point = self._point(trial.params)
            if point is not None and trial.value is not None and math.isfinite(trial.value):
                x.append(point)
                y.append(sign * trial.value)
        if not y:
            return x, y
        worst = min(y)
        for trial in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
            point = self._point(trial.params)
            if point is not None:
                x.append(point)
                y.append(worst)
        return x, y

    def sample_relative(
        self, study: Study, trial: FrozenTrial, search_space: dict[str, BaseDistribution]
    ) -> dict[str, Any]:
        if not search_space:
            return {}
        x, y = self._observations(study)
        if not y:
            return {}
        seed = int(self._rng.randint(2**31 - 1))
        unit = self._compute(np.asarray(x, dtype=float), np.asarray(y), self._utility, seed)
        params, offset = {}, 0
        for name, feature in self._features.items():
            params[name] = feature.decode(unit[offset : offset + feature.width])
            offset += feature.width
        return params

    def sample_independent(
        self,
        study: Study,
        trial: FrozenTrial,
        param_name: str,
        param_distribution: BaseDistribution,
    ) -> Any:
        return self._random.sample_independent(study, trial, param_name, param_distribution)
