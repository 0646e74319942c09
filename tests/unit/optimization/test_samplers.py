"""The sampler and the trial budget of each adaptive matrix kind, and their seeds."""

from textwrap import dedent

import pytest
from optuna import create_study
from optuna.samplers import RandomSampler, TPESampler
from optuna.study import StudyDirection

from axonal_optimization.domain import samplers, spaces
from axonal_optimization.domain.bayes import BayesSampler
from axonal_optimization.domain.samplers import Budget, budget, direction, sampler_for

from .optimization_support import run_study, search_space

PARAMS = """
params:
  x: {kind: uniform, value: "-5:10"}
  y: {kind: choice, value: [1, 2, 3]}
  lr: {kind: loguniform, value: "-5:-1"}
"""
BAYES_PARAMS = PARAMS.replace("loguniform", "logspace").replace('-1"', '-1:5"')  # no loguniform


def matrix(header, params=PARAMS):
    return search_space(dedent(header) + params)


TPE = matrix(
    """
    kind: tpe
    concurrency: 2
    seed: 3
    numRuns: 12
    metric: {name: loss, optimization: minimize}
    """
)
BAYES = matrix(
    """
    kind: bayes
    concurrency: 3
    seed: 5
    numInitialRuns: 4
    maxIterations: 10
    metric: {name: loss}
    utilityFunction: {acquisitionFunction: ei, eps: 0.01, numWarmup: 200, numIterations: 2}
    """,
    BAYES_PARAMS,
)
HYPERBAND = matrix(
    """
    kind: hyperband
    maxIterations: 81
    eta: 3
    seed: 1
    resource: {name: epochs, type: int}
    metric: {name: loss, optimization: minimize}
    """
)
ITERATIVE = matrix("kind: iterative\nmaxIterations: 3")


def objective(values):
    return (values["x"] - 2) ** 2 + values["y"] + values["lr"]


def test_tpe_is_optunas_with_hypertunes_settings():
    sampler = sampler_for(TPE, trials_so_far=0)
    assert isinstance(sampler, TPESampler)
    assert (sampler._n_startup_trials, sampler._n_ei_candidates) == (10, 24)
    assert sampler._constant_liar
    assert sampler._parzen_estimator_parameters.multivariate
    tpe = run_study(TPE, objective, 3).trials
    rand = run_study(TPE, objective, 3, sampler=RandomSampler(seed=3)).trials
    assert [t.params for t in tpe] == [t.params for t in rand]  # the startup draws: seed 3


def test_hyperopt_algorithms():
    hyperopt = TPE | {"algorithm": "rand"}
    assert isinstance(sampler_for(hyperopt, trials_so_far=0), RandomSampler)
    assert isinstance(sampler_for(TPE | {"kind": "hyperopt"}, trials_so_far=0), TPESampler)
    anneal = TPE | {"kind": "hyperopt", "algorithm": "anneal"}  # axonal check refuses it too
    with pytest.raises(ValueError, match=r"^matrix\.algorithm: `anneal` has no Optuna"):
        sampler_for(anneal, trials_so_far=0)


def test_bayes_and_hyperband_samplers():
    assert isinstance(sampler_for(BAYES, trials_so_far=0), BayesSampler)
    assert isinstance(sampler_for(HYPERBAND, trials_so_far=0), RandomSampler)


@pytest.mark.parametrize("call", [budget, lambda s: sampler_for(s, trials_so_far=0)])
def test_iterative_searches_have_no_sampler_nor_budget(call):
    with pytest.raises(ValueError, match="its tuner suggests the runs"):
        call(ITERATIVE)
    with pytest.raises(ValueError, match="`grid` is not an adaptive search"):
        call({"kind": "grid", "params": {}})


def test_budgets():
    assert budget(TPE) == Budget(total=12, concurrency=2)
    assert budget(TPE | {"numRuns": None, "maxIterations": 7}) == Budget(7, 2)
    with pytest.raises(ValueError, match=r"matrix\.numRuns: a tpe search needs it"):
        budget({"kind": "tpe", "params": {}})
    assert budget(BAYES) == Budget(total=4 + 10 * 3, concurrency=3)
    assert budget(HYPERBAND) == Budget(total=206, concurrency=1)
    with pytest.raises(ValueError, match=r"matrix\.eta: hyperband needs it"):
        budget(HYPERBAND | {"eta": None})


def test_direction_follows_the_metric_and_defaults_to_maximize():
    assert direction(TPE) == StudyDirection.MINIMIZE
    assert direction(BAYES) == StudyDirection.MAXIMIZE
    assert direction({"kind": "hyperband"}) == StudyDirection.MAXIMIZE


@pytest.mark.parametrize(("space", "history"), [(TPE, 12), (BAYES, 6), (HYPERBAND, 3)])
def test_the_same_seed_and_history_give_the_same_suggestions(space, history):
    past = run_study(space, objective, history).trials
    suggestions = []
    for _ in range(2):
        sampler = samplers.sampler_for(space, trials_so_far=len(past))
        study = create_study(direction=direction(space), sampler=sampler)
        study.add_trials(past)
        trials = [study.ask(spaces.distributions(space["params"])) for _ in range(2)]
        suggestions.append([trial.params for trial in trials])
    assert suggestions[0] == suggestions[1]
    assert suggestions[0][0] != suggestions[0][1]


def test_a_rebuilt_sampler_does_not_repeat_the_first_trials():
    first = run_study(HYPERBAND, objective, 1).trials
    rebuilt = create_study(sampler=sampler_for(HYPERBAND, trials_so_far=1))
    rebuilt.add_trials(first)
    again = rebuilt.ask(spaces.distributions(HYPERBAND["params"]))
    assert again.params != first[0].params
    naive = create_study(sampler=RandomSampler(seed=1))
    naive.add_trials(first)
    assert naive.ask(spaces.distributions(HYPERBAND["params"])).params == first[0].params


def test_unseeded_searches_are_random():
    unseeded = TPE | {"seed": None}
    draws = [run_study(unseeded, objective, 1).trials[0].params for _ in range(2)]
    assert draws[0] != draws[1]
