"""Matrices kind by kind: grid, random, mapping, bayes, hyperband, tpe, iterative and tuners."""

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axonal_spec.errors import SpecError
from axonal_spec.matrix import (
    BayesMatrix,
    HyperbandMatrix,
    IterativeMatrix,
    expand,
    grid_size,
    parse_matrix,
)

from .matrix_support import CHOICE, MINIMAL, UNIFORM, has_problem, problems

# -- grid ------------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["uniform", "normal", "loguniform", "pchoice", "qnormal"])
def test_grid_rejects_distributions_naming_the_param(kind):
    value = {"pchoice": [["a", 0.5]], "qnormal": "0:1:0.5"}.get(kind, "0:1")
    data = {"kind": "grid", "params": {"a": CHOICE, "lr": {"kind": kind, "value": value}}}
    ((location, message),) = problems(data)
    assert location == "matrix.params.lr"
    assert message.startswith(f"`{kind}` is a distribution, which grid search cannot enumerate")


def test_grid_accepts_every_discrete_kind():
    params = {
        "a": {"kind": "choice", "value": [1]},
        "b": {"kind": "range", "value": "0:2:1"},
        "c": {"kind": "linspace", "value": "0:1:2"},
        "d": {"kind": "logspace", "value": "0:1:2"},
        "e": {"kind": "geomspace", "value": "1:4:2"},
        "f": {"kind": "daterange", "value": "2020-01-01:2020-01-03:1"},
        "g": {"kind": "datetimerange", "value": ["2020-01-01 00:00", "2020-01-01 02:00", 3600]},
    }
    matrix = parse_matrix({"kind": "grid", "params": params})
    assert grid_size(matrix) == len(expand(matrix)) == 1 * 2 * 2 * 2 * 2 * 2 * 2


def test_grid_size_does_not_materialise():
    matrix = parse_matrix(
        {
            "kind": "grid",
            "params": {f"p{i}": {"kind": "range", "value": [0, 10**6, 1]} for i in range(3)},
        }
    )
    assert grid_size(matrix) == 10**18


def test_a_ten_thousand_point_grid_expands():  # speed: bench/spec.py
    matrix = parse_matrix(
        {
            "kind": "grid",
            "params": {f"p{i}": {"kind": "range", "value": "0:10:1"} for i in range(4)},
        }
    )
    runs = expand(matrix)
    assert len(runs) == 10_000


@settings(max_examples=50, deadline=None)
@given(
    counts=st.lists(st.integers(1, 5), min_size=1, max_size=4),
    num_runs=st.one_of(st.none(), st.integers(1, 700)),
)
def test_grid_size_is_the_product_of_value_counts(counts, num_runs):
    params = {f"p{i}": {"kind": "range", "value": [0, n, 1]} for i, n in enumerate(counts)}
    matrix = parse_matrix({"kind": "grid", "params": params, "numRuns": num_runs})
    full = math.prod(counts)
    expected = full if num_runs is None else min(full, num_runs)
    runs = expand(matrix)
    assert grid_size(matrix) == len(runs) == expected
    assert len({json.dumps(r, sort_keys=True) for r in runs}) == expected


# -- random ----------------------------------------------------------------------------------

CONTINUOUS = {
    "kind": "random",
    "numRuns": 5,
    "params": {"lr": {"kind": "loguniform", "value": "-5:0"}, "act": CHOICE},
}


@settings(max_examples=30, deadline=None)
@given(seed=st.one_of(st.integers(0, 2**64), st.uuids().map(str)))
def test_random_expansion_is_deterministic_per_seed(seed):
    matrix = parse_matrix(CONTINUOUS)
    assert expand(matrix, seed=seed) == expand(matrix, seed=seed)


def test_random_expansion_differs_between_seeds():
    matrix = parse_matrix(CONTINUOUS)
    assert expand(matrix, seed="run-a") != expand(matrix, seed="run-b")


def test_random_matrix_seed_wins_over_the_callers():
    matrix = parse_matrix({**CONTINUOUS, "seed": "42"})
    assert matrix.to_dict()["seed"] == 42
    assert expand(matrix, seed="run-a") == expand(matrix, seed="run-b") == expand(matrix)


def test_random_without_any_seed_is_an_error():
    with pytest.raises(SpecError) as info:
        expand(parse_matrix(CONTINUOUS))
    (problem,) = info.value.problems
    assert problem.location == "matrix.seed"
    assert "seed" in (problem.hint or "")


def test_random_draws_are_distinct_and_capped_by_a_discrete_space():
    data = {
        "kind": "random",
        "numRuns": 50,
        "params": {
            "a": {"kind": "choice", "value": [1, 2, 3]},
            "b": {"kind": "pchoice", "value": [["x", 0.5], ["y", 0.5], ["never", 0.0]]},
            "c": {"kind": "choice", "value": [0, 0]},  # duplicates count once
        },
    }
    matrix = parse_matrix(data)
    runs = expand(matrix, seed=1)
    assert grid_size(matrix) == len(runs) == 6
    assert len({json.dumps(r, sort_keys=True) for r in runs}) == 6
    assert all(r["b"] != "never" for r in runs)


def test_random_skewed_space_still_completes():
    data = {
        "kind": "random",
        "numRuns": 2,
        "params": {"a": {"kind": "pchoice", "value": [["common", 0.999999], ["rare", 1e-7]]}},
    }
    runs = expand(parse_matrix(data), seed=0)
    assert sorted(r["a"] for r in runs) == ["common", "rare"]


def test_random_tiny_quantised_space_repeats_rather_than_loops():
    data = {
        "kind": "random",
        "numRuns": 10,
        "params": {"a": {"kind": "quniform", "value": "0:1:0.5"}},
    }
    runs = expand(parse_matrix(data), seed=0)
    assert len(runs) == 10
    assert {r["a"] for r in runs} <= {0.0, 0.5, 1.0}


def test_random_samples_distributions_within_bounds():
    runs = expand(parse_matrix({**CONTINUOUS, "numRuns": 100}), seed=3)
    assert len(runs) == 100
    assert all(math.exp(-5) <= r["lr"] <= 1 for r in runs)


# -- mapping ---------------------------------------------------------------------------------


def test_mapping_expands_to_copies_of_its_values():
    matrix = parse_matrix({"kind": "mapping", "values": [{"a": 1, "b": "x"}, {"a": 2}]})
    runs = expand(matrix)
    assert runs == [{"a": 1, "b": "x"}, {"a": 2}]
    runs[0]["a"] = 99
    assert expand(matrix)[0]["a"] == 1
    assert grid_size(matrix) == 2


def test_mapping_needs_values():
    has_problem({"kind": "mapping", "values": []}, "matrix.values", "at least 1 item")
    has_problem({"kind": "mapping", "values": [1]}, "matrix.values[0]", "valid dictionary")


# -- bayes -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "value"),
    [
        ("normal", "0:1"),
        ("loguniform", "0:1"),
        ("quniform", "0:1:0.1"),
        ("qlognormal", "0:1:0.1"),
        ("pchoice", [["a", 0.5]]),
    ],
)
def test_bayes_rejects_non_uniform_distributions(kind, value):
    data = {**MINIMAL["bayes"], "params": {"lr": {"kind": kind, "value": value}}}
    ((location, message),) = problems(data)
    assert location == "matrix.params.lr"
    assert message.startswith(f"`{kind}` is a non-uniform distribution")


def test_bayes_accepts_uniform_and_discrete_params():
    data = {**MINIMAL["bayes"], "params": {"lr": UNIFORM, "n": {"kind": "range", "value": "1:4:1"}}}
    assert isinstance(parse_matrix(data), BayesMatrix)


@pytest.mark.parametrize(
    ("utility", "message"),
    [
        ({"kappa": 1.2}, None),
        ({"acquisitionFunction": "UCB"}, "the acquisition function `ucb` needs `kappa`"),
        ({}, "the acquisition function `ucb` needs `kappa`"),
        ({"acquisitionFunction": "ei"}, "the acquisition function `ei` needs `eps`"),
        ({"acquisitionFunction": "poi", "kappa": 1}, "the acquisition function `poi` needs `eps`"),
        ({"acquisitionFunction": "ei", "eps": "0.1"}, None),
        ({"acquisitionFunction": "poi", "eps": 0.1}, None),
    ],
)
def test_bayes_acquisition_parameters(utility, message):
    data = {**MINIMAL["bayes"], "utilityFunction": utility}
    if message is None:
        assert isinstance(parse_matrix(data), BayesMatrix)
    else:
        assert problems(data) == {("matrix.utilityFunction", message)}


def test_bayes_gaussian_process_defaults_and_kernels():
    matrix = parse_matrix(
        {**MINIMAL["bayes"], "utilityFunction": {"kappa": 1, "gaussianProcess": {}}}
    )
    assert isinstance(matrix, BayesMatrix)
    gp = matrix.utility_function.gaussian_process  # type: ignore[union-attr]
    assert (gp.kernel, gp.length_scale, gp.nu, gp.num_restarts_optimizer) == ("matern", 1.0, 1.5, 0)
    has_problem(
        {
            **MINIMAL["bayes"],
            "utilityFunction": {"kappa": 1, "gaussianProcess": {"kernel": "poly"}},
        },
        "matrix.utilityFunction.gaussianProcess.kernel",
        "'matern' or 'rbf'",
    )


# -- hyperband, tpe, iterative, tuner ----------------------------------------------------------


def test_hyperband_fields():
    matrix = parse_matrix(
        {
            "kind": "hyperband",
            "maxIterations": 81,
            "eta": "3",
            "resource": {"name": "num_steps", "type": "INT"},
            "metric": {"name": "loss", "optimization": "Minimize"},
            "resume": False,
            "params": {"lr": {"kind": "normal", "value": "0:1"}},
            "seed": 1,
        }
    )
    assert isinstance(matrix, HyperbandMatrix)
    assert matrix.eta == 3.0
    assert matrix.resource is not None
    assert matrix.resource.type == "int"
    assert matrix.metric is not None
    assert matrix.metric.optimization == "minimize"
    has_problem({"kind": "hyperband", "eta": 1}, "matrix.eta", "eta must be > 1")
    has_problem(
        {"kind": "hyperband", "resource": {"name": "x", "type": "str"}},
        "matrix.resource.type",
        "'int' or 'float'",
    )


def test_tpe_algorithm_and_hyperopt_alias():
    assert parse_matrix({**MINIMAL["tpe"], "kind": "hyperopt"}) == parse_matrix(MINIMAL["tpe"])
    matrix = parse_matrix({**MINIMAL["tpe"], "kind": "hyperopt", "algorithm": "rand"})
    assert (matrix.kind, matrix.algorithm) == ("tpe", "rand")  # type: ignore[union-attr]
    anneal = {**MINIMAL["tpe"], "kind": "hyperopt", "algorithm": "anneal"}
    has_problem(anneal, "matrix.algorithm", "no Optuna equivalent")  # nothing would run it
    has_problem({**MINIMAL["tpe"], "algorithm": "grid"}, "matrix.algorithm", "'tpe', 'rand'")


def test_iterative_and_tuner():
    matrix = parse_matrix(
        {
            "kind": "iterative",
            "maxIterations": 5,
            "tuner": {
                "hubRef": "acme/my-tuner:v1",
                "queue": "agent/cpu",
                "params": {"x": {"value": 1}},
            },
        }
    )
    assert isinstance(matrix, IterativeMatrix)
    assert matrix.tuner is not None
    assert matrix.tuner.hub_ref == "acme/my-tuner:v1"
    assert matrix.metric is None
    measured = parse_matrix({**MINIMAL["iterative"], "metric": {"name": "loss"}})
    assert isinstance(measured, IterativeMatrix)
    assert measured.metric is not None
    assert measured.metric.name == "loss"
    has_problem(
        {**MINIMAL["iterative"], "tuner": {"queue": "q"}}, "matrix.tuner.hubRef", "is required"
    )
