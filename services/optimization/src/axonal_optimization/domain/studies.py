"""A study in memory: an Optuna study over the sweep's search space, built from its stored
trials, that suggests the next trials and learns each result.

Optuna's own storage is not used (its relational storage costs tens of milliseconds a trial):
the service's tables are the record, and a replica rebuilds the in-memory study from them.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import optuna
from optuna.distributions import BaseDistribution
from optuna.trial import TrialState, create_trial

from axonal_optimization.domain import samplers, spaces
from axonal_optimization.domain.bayes import Compute, compute_inline
from axonal_optimization.domain.pruning import pruning

__all__ = ["LiveStudy", "Study", "TrialRecord", "TrialStateName", "approximations", "objective"]

TrialStateName = Literal["running", "complete", "failed", "pruned"]
_STATES: dict[str, TrialState] = {
    "running": TrialState.RUNNING,
    "complete": TrialState.COMPLETE,
    "failed": TrialState.FAIL,
    "pruned": TrialState.PRUNED,
}

optuna.logging.set_verbosity(optuna.logging.WARNING)


@dataclass(frozen=True)
class Study:
    """A sweep's study as stored."""

    sweep_uuid: str
    owner: str
    project: str
    name: str | None
    kind: str
    search_space: dict[str, Any]
    state: str
    reason: str | None

    @property
    def full_project(self) -> str:
        return f"{self.owner}/{self.project}"


@dataclass(frozen=True)
class TrialRecord:
    """A stored trial: its number, the params its run received, how it ended."""

    number: int
    params: dict[str, Any]
    state: TrialStateName
    value: float | None = None
    intermediate: Mapping[int, float] = field(default_factory=dict)


def objective(search_space: dict[str, Any]) -> tuple[str, Literal["minimize", "maximize"]]:
    """The metric a search optimizes and in which direction (Polyaxon's default: maximize);
    ``ValueError`` without one."""
    metric = search_space.get("metric") or {}
    name = metric.get("name")
    if not name:
        raise ValueError("matrix.metric: an adaptive search needs the metric it optimizes")
    return str(name), "minimize" if metric.get("optimization") == "minimize" else "maximize"


def approximations(search_space: dict[str, Any]) -> list[str]:
    """What the search runs differently from the file, each named: params whose kind the
    sampler approximates, a hyperband's ``resume``, a bayes search's GP fit."""
    notes = spaces.approximations(search_space)
    if search_space.get("kind") == "hyperband" and search_space.get("resume"):
        notes.append(
            "matrix.resume: a promoted configuration runs as a new trial with the next rung's "
            "resource; it is not resumed from its earlier trial"
        )
    if search_space.get("kind") == "bayes":
        notes.append(
            "matrix.utilityFunction: the GP standardises the metric and fits its kernel's "
            "amplitude and length scale (bounded to [0.05, 20]) with a small nugget"
        )
    return notes


class LiveStudy:
    """The Optuna study of one sweep (see the module docstring)."""

    def __init__(
        self,
        search_space: dict[str, Any],
        trials: Sequence[TrialRecord] = (),
        *,
        learns: bool = True,
        compute: Compute = compute_inline,
    ) -> None:
        """``learns``: the sampler learns from ``trials``; else it only draws (a hyperband
        search's configurations), seeded past the ``trials`` drawn before. ``compute`` runs a
        GP's suggestions (``bayes``)."""
        self.search_space = search_space
        self.metric, direction = objective(search_space)
        self.params: dict[str, Any] = search_space.get("params") or {}
        self.distributions: dict[str, BaseDistribution] = spaces.distributions(self.params)
        self.budget = samplers.budget(search_space)
        sampler = samplers.sampler_for(search_space, trials_so_far=len(trials), compute=compute)
        prunes = pruning(search_space)
        #: The metric whose intermediate values the pruner reads (none: no pruning).
        self.pruned_metric = prunes.metric
        self.study = optuna.create_study(direction=direction, sampler=sampler, pruner=prunes.pruner)
        if trials and learns:
            self.study.add_trials([self._frozen(t) for t in sorted(trials, key=_number)])

    def _frozen(self, trial: TrialRecord) -> optuna.trial.FrozenTrial:
        state = _STATES[trial.state]
        complete = state is TrialState.COMPLETE
        return create_trial(
            state=state,
            value=trial.value if complete or state is TrialState.PRUNED else None,
            params=spaces.encode(self.params, trial.params),
            distributions=self.distributions,
            intermediate_values=dict(trial.intermediate),
        )

    def ask(self, count: int) -> list[tuple[int, dict[str, Any]]]:
        """``count`` new trials: each one's number and the params its run receives."""
        asked = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)
            for _ in range(count):
                trial = self.study.ask(self.distributions)
                asked.append((trial.number, spaces.decode(self.params, trial.params)))
        return asked

    def counts(self) -> tuple[int, int]:
        """How many trials the study has, and how many of them are running."""
        trials = self.study.get_trials(deepcopy=False)
        return len(trials), sum(1 for t in trials if t.state is TrialState.RUNNING)

    def report(self, number: int, values: Mapping[int, float]) -> None:
        """Record the intermediate values of running trial ``number`` (new steps only)."""
        trial = self.study.get_trials(deepcopy=False)[number]
        known = trial.intermediate_values
        running = optuna.trial.Trial(self.study, trial._trial_id)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a step seen again: ignored
            for step, value in sorted(values.items()):
                if step not in known:
                    running.report(value, step)

    def should_prune(self, number: int) -> bool:
        """Whether the pruner stops running trial ``number`` at its last reported step."""
        trial = self.study.get_trials(deepcopy=False)[number]
        return trial.last_step is not None and self.study.pruner.prune(self.study, trial)

    def tell(self, number: int, state: TrialStateName, value: float | None = None) -> None:
        """Record how trial ``number`` ended (a complete trial with its value)."""
        if state == "complete":
            self.study.tell(number, value)
        else:
            self.study.tell(number, state=_STATES[state], skip_if_finished=True)

    def best(self) -> tuple[int, float, dict[str, Any]] | None:
        """The best complete trial: its number, value and params; ``None`` if none is."""
        complete = [t for t in self.study.trials if t.state is TrialState.COMPLETE]
        if not complete:
            return None
        best = self.study.best_trial
        assert best.value is not None
        return best.number, best.value, spaces.decode(self.params, best.params)


def _number(trial: TrialRecord) -> int:
    return trial.number
