"""Turn a matrix into its runs' params (grid, random, mapping) or a search space (adaptive).

Random search is deterministic: it draws with ``random.Random(seed)`` where ``seed`` is the
matrix's own ``seed`` or, when the file sets none, the ``seed`` the caller passes (the
compiler passes the pipeline run's uuid, so a run re-expands identically and two runs of the
same file differ, as in Polyaxon where an unseeded search is random). Neither given is an error:
there is no hidden fixed default.

Like Polyaxon's random manager, the draws are distinct; when every param is discrete the number
of runs is capped at the number of distinct combinations. A space of quantised distributions
too small for ``numRuns`` distinct draws falls back to repeated draws instead of looping.
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Iterable, Mapping
from typing import Any

from axonal_spec.errors import SpecError
from axonal_spec.matrix.hyperparams import Choice, PChoice
from axonal_spec.matrix.kinds import AnyMatrix, GridMatrix, MappingMatrix, RandomMatrix

__all__ = ["expand", "grid_size", "search_space"]

Seed = int | str


def expand(matrix: AnyMatrix, seed: Seed | None = None) -> list[dict[str, Any]]:
    """The params of every run of a ``grid``, ``random`` or ``mapping`` matrix, in order.

    ``seed`` is used by ``random`` when the matrix has no ``seed`` of its own. Adaptive kinds
    raise :class:`SpecError`: their runs come from the optimization service
    (:func:`search_space`).
    """
    if isinstance(matrix, GridMatrix):
        names = list(matrix.params)
        combos: Iterable[tuple[Any, ...]] = itertools.product(
            *(param.values() for param in matrix.params.values())
        )
        if matrix.num_runs is not None:
            combos = itertools.islice(combos, matrix.num_runs)
        return [dict(zip(names, combo, strict=True)) for combo in combos]
    if isinstance(matrix, RandomMatrix):
        return _expand_random(matrix, seed)
    if isinstance(matrix, MappingMatrix):
        return [dict(values) for values in matrix.values]
    raise _adaptive(matrix)


def grid_size(matrix: AnyMatrix) -> int:
    """How many runs :func:`expand` returns, computed without materialising them."""
    if isinstance(matrix, GridMatrix):
        size = math.prod(param.size() for param in matrix.params.values())
        return size if matrix.num_runs is None else min(size, matrix.num_runs)
    if isinstance(matrix, RandomMatrix):
        space = _distinct_space(matrix)
        return matrix.num_runs if space is None else min(matrix.num_runs, space)
    if isinstance(matrix, MappingMatrix):
        return len(matrix.values)
    raise _adaptive(matrix)


def search_space(matrix: AnyMatrix) -> dict[str, Any]:
    """The matrix as plain JSON for the optimization service: its settings in the file's
    spelling, with each param as ``{"kind": ..., <parameters>}`` (see ``to_search_space``)."""
    space = matrix.to_dict()
    params = getattr(matrix, "params", None)
    if params:
        space["params"] = {name: param.to_search_space() for name, param in params.items()}
    return space


def _adaptive(matrix: AnyMatrix) -> SpecError:
    return SpecError.at(
        "matrix.kind",
        f"`{matrix.kind}` is an adaptive search: the optimization service suggests its runs "
        "iteration by iteration, they cannot be expanded up front",
        hint="send search_space(matrix) to the optimization service",
    )


def _key(params: Mapping[str, Any]) -> str:
    return json.dumps(params, sort_keys=True, default=str)


def _reachable(param: Any) -> list[Any] | None:
    """The distinct values a choice can draw (``None``: all ``size()`` values are distinct)."""
    if isinstance(param, PChoice):
        options = [option for option, p in param.value if p > 0]
    elif isinstance(param, Choice):
        options = list(param.value)
    else:
        return None
    distinct: dict[str, Any] = {}
    for option in options:
        distinct.setdefault(_key({"": option}), option)
    return list(distinct.values())


def _distinct_space(matrix: RandomMatrix) -> int | None:
    """The number of distinct combinations, or ``None`` when a param is continuous."""
    if not all(param.is_discrete for param in matrix.params.values()):
        return None
    sizes = []
    for param in matrix.params.values():
        reachable = _reachable(param)
        sizes.append(param.size() if reachable is None else len(reachable))
    return math.prod(sizes)


def _expand_random(matrix: RandomMatrix, seed: Seed | None) -> list[dict[str, Any]]:
    chosen = matrix.seed if matrix.seed is not None else seed
    if chosen is None:
        raise SpecError.at(
            "matrix.seed",
            "random search needs a seed to expand reproducibly",
            hint="set `seed` in the matrix, or pass expand(matrix, seed=<pipeline run uuid>)",
        )
    rng = random.Random(chosen)
    space = _distinct_space(matrix)
    target = matrix.num_runs if space is None else min(matrix.num_runs, space)
    runs: list[dict[str, Any]] = []
    seen: set[str] = set()
    attempts = max(1000, 100 * target)
    while len(runs) < target and attempts > 0:
        attempts -= 1
        run = {name: param.sample(rng) for name, param in matrix.params.items()}
        key = _key(run)
        if key not in seen:
            seen.add(key)
            runs.append(run)
    if len(runs) < target:
        runs.extend(_fill(matrix, rng, seen, target - len(runs), discrete=space is not None))
    return runs


def _fill(
    matrix: RandomMatrix, rng: random.Random, seen: set[str], missing: int, *, discrete: bool
) -> list[dict[str, Any]]:
    """Complete a draw that rejection sampling could not finish (a tiny or skewed space)."""
    names = list(matrix.params)
    if not discrete:  # quantised distributions with too few distinct values: allow repeats
        return [{n: matrix.params[n].sample(rng) for n in names} for _ in range(missing)]
    choices = []
    for param in matrix.params.values():
        reachable = _reachable(param)
        choices.append(param.values() if reachable is None else reachable)
    unseen = [
        run
        for run in (dict(zip(names, combo, strict=True)) for combo in itertools.product(*choices))
        if _key(run) not in seen
    ]
    rng.shuffle(unseen)
    return unseen[:missing]
