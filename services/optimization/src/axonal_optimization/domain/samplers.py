"""Which Optuna sampler suggests the trials of an adaptive search, and how many trials it runs.

* ``tpe`` (``hyperopt`` is its alias): ``TPESampler(seed, n_startup_trials=10,
  n_ei_candidates=24)``, hypertune's settings, with Optuna's defaults otherwise: univariate
  (as hypertune's TPE is) and no constant liar (running trials are not yet observations).
  ``algorithm: rand`` is a ``RandomSampler``; ``algorithm: anneal`` has no Optuna
  equivalent and is refused.
* ``bayes``: :class:`BayesSampler`, Polyaxon's GP with its ``utilityFunction``.
* ``hyperband``: a ``RandomSampler`` draws each bracket's configurations (as Polyaxon does);
  :class:`Hyperband` decides which run and with what resource.
* ``iterative``: the user's tuner suggests the runs, there is no sampler.

Seeds: a sampler built after ``trials_so_far`` trials is seeded with ``seed + trials_so_far``,
so a sampler rebuilt after a restart does not repeat the first trials' draws, and the same
seed and history give the same suggestions. Without a ``seed`` the search is not reproducible.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from optuna.samplers import BaseSampler, RandomSampler, TPESampler
from optuna.study import StudyDirection

from axonal_optimization.domain.bayes import BayesSampler, Compute, compute_inline
from axonal_optimization.domain.hyperband import Hyperband

__all__ = ["Budget", "budget", "direction", "sampler_for"]

_SEEDS = 2**32  # numpy seeds are 32-bit


@dataclass(frozen=True)
class Budget:
    """How many trials a search runs in all, and how many may run at once."""

    total: int
    concurrency: int


def _kind(search_space: Mapping[str, Any]) -> str:
    kind = str(search_space.get("kind"))
    return "tpe" if kind == "hyperopt" else kind


def _required(search_space: Mapping[str, Any], key: str) -> int:
    value = search_space.get(key)
    if value is None:
        raise ValueError(f"matrix.{key}: a {_kind(search_space)} search needs it")
    return int(value)


def _iterative() -> ValueError:
    return ValueError(
        "matrix.kind: an iterative search has no sampler and no trial budget: "
        "its tuner suggests the runs of each of its maxIterations iterations"
    )


def budget(search_space: Mapping[str, Any]) -> Budget:
    """``tpe``: ``numRuns`` (else ``maxIterations``); ``bayes``: ``numInitialRuns +
    maxIterations * concurrency``; ``hyperband``: every rung of every bracket. ``concurrency``
    defaults to 1."""
    kind = _kind(search_space)
    concurrency = int(search_space.get("concurrency") or 1)
    if kind == "tpe":
        runs = search_space.get("numRuns") or search_space.get("maxIterations")
        total = runs if runs is not None else _required(search_space, "numRuns")
    elif kind == "bayes":
        initial = _required(search_space, "numInitialRuns")
        total = initial + _required(search_space, "maxIterations") * concurrency
    elif kind == "hyperband":
        total = Hyperband.from_search_space(search_space).total
    elif kind == "iterative":
        raise _iterative()
    else:
        raise ValueError(f"matrix.kind: `{kind}` is not an adaptive search")
    return Budget(total=int(total), concurrency=concurrency)


def direction(search_space: Mapping[str, Any]) -> StudyDirection:
    """The study's direction: ``metric.optimization`` (Polyaxon's default: maximize)."""
    metric = search_space.get("metric") or {}
    if metric.get("optimization") == "minimize":
        return StudyDirection.MINIMIZE
    return StudyDirection.MAXIMIZE


def sampler_for(
    search_space: Mapping[str, Any], *, trials_so_far: int, compute: Compute = compute_inline
) -> BaseSampler:
    """The sampler for the next trials of a search that has already made ``trials_so_far``
    trials (rebuild it with the current count after a restart); ``compute`` runs a GP's
    suggestions (``bayes``)."""
    kind = _kind(search_space)
    base = search_space.get("seed")
    seed = None if base is None else (int(base) + trials_so_far) % _SEEDS
    if kind == "tpe":
        algorithm = search_space.get("algorithm") or "tpe"
        if algorithm == "anneal":
            raise ValueError(
                "matrix.algorithm: `anneal` has no Optuna equivalent (use tpe or rand)"
            )
        if algorithm == "rand":
            return RandomSampler(seed=seed)
        return TPESampler(seed=seed, n_startup_trials=10, n_ei_candidates=24)
    if kind == "bayes":
        return BayesSampler(search_space, seed=seed, compute=compute)
    if kind == "hyperband":
        return RandomSampler(seed=seed)
    if kind == "iterative":
        raise _iterative()
    raise ValueError(f"matrix.kind: `{kind}` is not an adaptive search")
