"""The bayes sampler: Polyaxon's Gaussian process and utility function behind Optuna's API."""

import math
import statistics
from textwrap import dedent, indent

import pytest
from optuna import create_study
from optuna.distributions import FloatDistribution
from optuna.samplers import RandomSampler
from optuna.trial import create_trial

from axonal_optimization.domain import spaces
from axonal_optimization.domain.gp import Utility
from axonal_optimization.domain.samplers import direction, sampler_for

from .optimization_support import run_study, search_space

QUICK = "numWarmup: 200, numIterations: 2"


def bayes(params, *, utility=f"{{acquisitionFunction: ei, eps: 0.0, {QUICK}}}", **settings):
    """A bayes search space: seed 1, 5 initial runs and 10 iterations unless ``settings``."""
    settings = {"seed": 1, "numInitialRuns": 5, "maxIterations": 10, **settings}
    header = "kind: bayes\n" + "".join(f"{key}: {value}\n" for key, value in settings.items())
    header += f"utilityFunction: {utility}\n"
    return search_space(header + "params:\n" + indent(dedent(params).strip(), "  "))


ONE = bayes("x: {kind: uniform, value: '0:1'}", metric="{name: loss, optimization: minimize}")


def parabola(values):
    return (values["x"] - 0.3) ** 2


def test_the_utility_function_of_the_search_space():
    space = bayes(
        "x: {kind: uniform, value: '0:1'}",
        utility="{acquisitionFunction: poi, eps: 0.1, numWarmup: 50, gaussianProcess: "
        "{kernel: rbf, lengthScale: 0.5, numRestartsOptimizer: 2}}",
        metric="{name: m}",
    )
    assert Utility.from_json(space["utilityFunction"]) == Utility(
        acquisition="poi", eps=0.1, kernel="rbf", length_scale=0.5, restarts=2, num_warmup=50
    )
    assert Utility.from_json(None) == Utility(acquisition="ucb", kappa=2.576, kernel="matern")


def test_the_initial_runs_are_random():
    gp = run_study(ONE, parabola, 6).trials
    rand = run_study(ONE, parabola, 5, sampler=RandomSampler(seed=1)).trials
    assert [t.params for t in gp[:5]] == [t.params for t in rand]
    assert gp[5].params not in [t.params for t in rand]


def test_minimize_and_maximize_search_alike_and_find_the_optimum():
    minimized = run_study(ONE, parabola, 12)
    maximize = ONE | {"metric": {"name": "loss", "optimization": "maximize"}}
    maximized = run_study(maximize, lambda values: -parabola(values), 12)
    assert [t.params for t in minimized.trials] == [t.params for t in maximized.trials]
    assert abs(minimized.best_params["x"] - 0.3) < 0.05


@pytest.mark.parametrize(
    "utility",
    [
        f"{{acquisitionFunction: ucb, kappa: 1.0, {QUICK}}}",
        f"{{acquisitionFunction: ei, eps: 0.01, {QUICK}, gaussianProcess: {{kernel: rbf}}}}",
        f"{{acquisitionFunction: poi, eps: 0.01, {QUICK}, gaussianProcess: {{nu: 2.5}}}}",
    ],
)
def test_each_acquisition_and_kernel_homes_in_on_the_optimum(utility):
    space = bayes("x: {kind: uniform, value: '0:1'}", utility=utility, metric="{name: m}")
    study = run_study(space, lambda values: -((values["x"] - 0.77) ** 2), 12)
    initial = [abs(t.params["x"] - 0.77) for t in study.trials[:5]]
    searched = [abs(t.params["x"] - 0.77) for t in study.trials[5:]]
    assert min(searched) < min(0.02, *initial)


MIXED = bayes(
    """
    optimizer: {kind: choice, value: [adam, sgd, {name: lamb}]}
    batch: {kind: choice, value: [16, 32, 64, 128]}
    layers: {kind: range, value: "1:8:2"}
    dropout: {kind: linspace, value: "0:0.5:6"}
    lr: {kind: logspace, value: "-5:-1:5"}
    day: {kind: daterange, value: "2024-01-01:2024-01-31:7"}
    momentum: {kind: uniform, value: "0.5:0.99"}
    """,
    metric="{name: loss, optimization: minimize}",
    concurrency=3,
)


def mixed(values):
    return (
        {"adam": 0.0, "sgd": 1.0}.get(values["optimizer"], 0.5)
        + abs(math.log2(values["batch"]) - 5)
        + values["layers"] / 10
        + values["dropout"]
        + abs(math.log10(values["lr"]) + 3)
        + values["momentum"]
    )


def test_a_mixed_space_gets_valid_distinct_suggestions_while_trials_run():
    study = run_study(MIXED, mixed, 8)
    distributions = spaces.distributions(MIXED["params"])
    running = [study.ask(distributions) for _ in range(3)]
    values = [spaces.decode(MIXED["params"], trial.params) for trial in running]
    assert len({repr(sorted(v.items())) for v in values}) == 3  # the liar spreads them
    for trial in study.trials:
        create_trial(params=trial.params, distributions=distributions, value=0.0)  # all valid


def test_trials_outside_the_current_space_are_ignored():
    study = create_study(direction=direction(ONE), sampler=sampler_for(ONE, trials_so_far=6))
    old = FloatDistribution(0, 100)
    study.add_trials(
        [
            create_trial(params={"x": 10.0 * i}, distributions={"x": old}, value=float(i))
            for i in range(6)
        ]
    )
    study.add_trial(create_trial(params={"x": 0.5}, distributions={"x": old}, value=0.04))
    trial = study.ask(spaces.distributions(ONE["params"]))
    assert 0 <= trial.params["x"] <= 1


def branin(values):
    x1, x2 = values["x1"], values["x2"]
    return (
        (x2 - 5.1 / (4 * math.pi**2) * x1**2 + 5 / math.pi * x1 - 6) ** 2
        + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x1)
        + 10
    )  # minimum 0.397887


def test_the_gp_beats_random_search_on_branin():
    def best(seed, sampler=None):
        space = bayes(
            "x1: {kind: uniform, value: '-5:10'}\nx2: {kind: uniform, value: '0:15'}",
            utility="{acquisitionFunction: ei, eps: 0.0, numIterations: 4}",
            metric="{name: loss, optimization: minimize}",
            seed=seed,
            numInitialRuns=10,
            maxIterations=20,
        )
        return run_study(space, branin, 30, sampler=sampler).best_value

    gp = [best(seed) for seed in range(5)]
    rand = [best(seed, RandomSampler(seed=seed)) for seed in range(5)]
    assert statistics.median(gp) < 0.8 < 1.4 < statistics.median(rand)
