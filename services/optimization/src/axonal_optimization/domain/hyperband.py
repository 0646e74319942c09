"""Hyperband as Polyaxon runs it: brackets of successive halving, played one rung at a time.

With ``R = maxIterations`` and ``η = eta``: ``s_max`` is the largest ``s`` with ``η^s <= R``,
``B = (s_max + 1) R``; bracket ``s`` (from ``s_max`` down to 0) starts
``n = ceil(B / R · η^s / (s + 1))`` configurations at ``r = R η^-s``; rung ``k`` runs at
``r η^k`` and the best ``int(n η^-k / η)`` of it go on to rung ``k + 1``. Everything is computed
with exact fractions: in floats ``log(1000) / log(10)`` is ``2.9999999999999996``, one bracket
short. Polyaxon re-runs a promoted configuration with the bigger resource (``resume`` only
changes how the job is told); :class:`Hyperband` says what to run next from the finished
trials.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

__all__ = ["Bracket", "ConfigId", "Finished", "Hyperband", "ResourceType", "Rung", "Stage"]

ResourceType = Literal["int", "float"] | None
"""``resource.type``: ``int`` floors, ``float`` keeps fractions; unset gives an int when the
resource is whole, else a float."""

ConfigId = int | str
"""What identifies a configuration across rungs (e.g. the trial that first ran it)."""


@dataclass(frozen=True)
class Rung:
    """``n_configs`` configurations, each run with ``resource``."""

    n_configs: int
    resource: int | float


@dataclass(frozen=True)
class Bracket:
    """Polyaxon's bracket ``s`` (``s_max`` first, with the most configurations)."""

    s: int
    rungs: tuple[Rung, ...]

    @property
    def trials(self) -> int:
        """How many trials the bracket runs (a promoted configuration runs again)."""
        return sum(rung.n_configs for rung in self.rungs)


def _fraction(value: float) -> Fraction:
    """The number as written (``2.5`` -> 5/2, ``1.1`` -> 11/10, not the binary float)."""
    return Fraction(repr(value)) if isinstance(value, float) else Fraction(value)


def _cast(resource: Fraction, resource_type: ResourceType) -> int | float:
    if resource_type == "int" or (resource_type is None and resource.denominator == 1):
        return math.floor(resource)
    return float(resource)


def brackets(
    max_iterations: int, eta: float, *, resource_type: ResourceType = None
) -> list[Bracket]:
    """The brackets in the order they run, each with its rungs."""
    if isinstance(max_iterations, bool) or not isinstance(max_iterations, int):
        raise ValueError(f"matrix.maxIterations must be an integer, got {max_iterations!r}")
    if max_iterations < 1:
        raise ValueError(f"matrix.maxIterations must be >= 1, got {max_iterations}")
    big_r, exact_eta = Fraction(max_iterations), _fraction(eta)
    if exact_eta <= 1:
        raise ValueError(f"matrix.eta must be > 1, got {eta}")
    s_max = 0
    while exact_eta ** (s_max + 1) <= big_r:
        s_max += 1
    budget = (s_max + 1) * big_r
    out = []
    for s in range(s_max, -1, -1):
        n = math.ceil(budget / big_r * exact_eta**s / (s + 1))
        r = big_r / exact_eta**s
        rungs = tuple(
            Rung(math.floor(n / exact_eta**k), _cast(r * exact_eta**k, resource_type))
            for k in range(s + 1)
        )
        out.append(Bracket(s=s, rungs=rungs))
    return out


@dataclass(frozen=True)
class Finished:
    """A finished trial: ``value`` is ``None`` (or NaN) when it failed or has no metric."""

    bracket: int
    rung: int
    config: ConfigId
    value: float | None


@dataclass(frozen=True)
class Stage:
    """The rung to run now, with ``resource``.

    On rung 0, ``new_configs`` configurations are drawn in all (start those not started
    yet); on a later rung, ``promoted`` lists the configurations to run again, best first.
    """

    bracket: int
    rung: int
    resource: int | float
    new_configs: int = 0
    promoted: tuple[ConfigId, ...] = ()


class Hyperband:
    """The schedule of :func:`brackets` played rung after rung, as in Polyaxon.

    A rung starts when the previous one has finished; brackets run one after the other.
    Trials without a value are never promoted; a rung with nothing to promote ends its
    bracket early.
    """

    def __init__(
        self,
        max_iterations: int,
        eta: float,
        *,
        maximize: bool = True,
        resource_type: ResourceType = None,
    ) -> None:
        self.brackets = brackets(max_iterations, eta, resource_type=resource_type)
        self.maximize = maximize

    @classmethod
    def from_search_space(cls, search_space: Mapping[str, Any]) -> Hyperband:
        """The plan of a ``hyperband`` search space (``maxIterations``, ``eta``,
        ``resource`` and ``metric`` are required)."""
        for key in ("maxIterations", "eta", "resource", "metric"):
            if search_space.get(key) is None:
                raise ValueError(f"matrix.{key}: hyperband needs it to plan its brackets")
        return cls(
            search_space["maxIterations"],
            search_space["eta"],
            maximize=search_space["metric"].get("optimization") != "minimize",
            resource_type=search_space["resource"].get("type"),
        )

    @property
    def total(self) -> int:
        """How many trials the whole search runs when none fails."""
        return sum(bracket.trials for bracket in self.brackets)

    def _best(self, results: Mapping[ConfigId, float | None], keep: int) -> tuple[ConfigId, ...]:
        valued = [(c, v) for c, v in results.items() if v is not None and not math.isnan(v)]
        valued.sort(key=lambda item: item[1], reverse=self.maximize)  # stable: first wins
        return tuple(config for config, _ in valued[:keep])

    def next_stage(self, finished: Iterable[Finished]) -> Stage | None:
        """What to run now given the finished trials (in the order they ran), or ``None``
        once every bracket is done."""
        results: dict[tuple[int, int], dict[ConfigId, float | None]] = {}
        for trial in finished:
            results.setdefault((trial.bracket, trial.rung), {})[trial.config] = trial.value
        for b, bracket in enumerate(self.brackets):
            expected: tuple[ConfigId, ...] = ()
            for k, rung in enumerate(bracket.rungs):
                done = results.get((b, k), {})
                if k == 0 and len(done) < rung.n_configs:
                    return Stage(b, 0, rung.resource, new_configs=rung.n_configs)
                if k > 0 and any(config not in done for config in expected):
                    return Stage(b, k, rung.resource, promoted=expected)
                if k + 1 < len(bracket.rungs):
                    if k > 0:
                        done = {config: done[config] for config in expected}
                    expected = self._best(done, bracket.rungs[k + 1].n_configs)
                    if not expected:
                        break
        return None

    def done(self, finished: Iterable[Finished]) -> bool:
        """Whether the whole search is over."""
        return self.next_stage(finished) is None
