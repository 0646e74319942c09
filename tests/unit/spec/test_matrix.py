import json
import math

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from axonal_spec.base import SpecModel
from axonal_spec.errors import SpecError
from axonal_spec.matrix import (
    BayesMatrix,
    EarlyStopping,
    FailureEarlyStopping,
    GridMatrix,
    HyperbandMatrix,
    IterativeMatrix,
    MappingMatrix,
    Matrix,
    MetricEarlyStopping,
    RandomMatrix,
    TpeMatrix,
    TruncationStoppingPolicy,
    expand,
    grid_size,
    parse_matrix,
    search_space,
)
from axonal_testing.conformance import project_fixtures

FIXTURES = project_fixtures() / "polyaxonfiles"
MATRICES = FIXTURES / "matrices"


def corpus_matrix(path):
    return parse_matrix(yaml.safe_load(path.read_text())["matrix"])


def problems(data):
    with pytest.raises(SpecError) as info:
        parse_matrix(data)
    return {(p.location, p.message) for p in info.value.problems}


def has_problem(data, location, fragment):
    found = problems(data)
    assert any(loc == location and fragment in msg for loc, msg in found), found


CHOICE = {"kind": "choice", "value": [1, 2]}
UNIFORM = {"kind": "uniform", "value": "0:1"}
METRIC = {"name": "loss", "optimization": "minimize"}
MINIMAL = {
    "grid": {"kind": "grid", "params": {"a": CHOICE}},
    "random": {"kind": "random", "params": {"a": CHOICE}, "numRuns": 1},
    "mapping": {"kind": "mapping", "values": [{"a": 1}]},
    "bayes": {
        "kind": "bayes",
        "params": {"a": CHOICE},
        "numInitialRuns": 2,
        "maxIterations": 3,
        "metric": METRIC,
    },
    "hyperband": {"kind": "hyperband"},
    "tpe": {"kind": "tpe", "params": {"a": CHOICE}, "metric": METRIC},
    "iterative": {"kind": "iterative", "maxIterations": 2},
}
ADAPTIVE = ["bayes", "hyperband", "tpe", "iterative"]


# -- the fixtures ----------------------------------------------------------------------------


def test_every_fixture_matrix_parses():
    found = 0
    for path in sorted(FIXTURES.rglob("*.y*ml")):
        stack = [yaml.safe_load(path.read_text())]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                if "matrix" in node:
                    parse_matrix(node["matrix"])
                    found += 1
                stack.extend(node.values())
            elif isinstance(node, list):
                stack.extend(node)
    assert found == 12


def test_fixture_grid_expands_in_written_order():
    runs = expand(corpus_matrix(MATRICES / "grid.yaml"))
    assert len(runs) == 16
    assert runs[0] == {"lr": 0.01, "batch_size": 32, "activation": "tanh", "epochs": 1}
    assert runs[1]["epochs"] == 2
    assert runs[2]["activation"] == "relu"
    assert runs[-1] == {"lr": 0.02, "batch_size": 64, "activation": "relu", "epochs": 2}
    assert list(runs[0]) == ["lr", "batch_size", "activation", "epochs"]


def test_fixture_grid_num_runs_truncates():
    matrix = corpus_matrix(MATRICES / "grid-truncated.yaml")
    full = GridMatrix.model_validate({**matrix.to_dict(), "numRuns": None})
    assert (matrix.concurrency, grid_size(matrix), grid_size(full)) == (3, 5, 24)
    assert expand(matrix) == expand(full)[:5]


def test_fixture_random_and_mapping_expand():
    random_matrix = corpus_matrix(MATRICES / "random.yaml")
    assert len(expand(random_matrix, seed="run-uuid")) == 6
    mapping = corpus_matrix(MATRICES / "mapping.yaml")
    assert (
        expand(mapping)
        == yaml.safe_load((MATRICES / "mapping.yaml").read_text())["matrix"]["values"]
    )


def test_fixture_hyperopt_is_read_as_tpe_keeping_the_algorithm():
    matrix = corpus_matrix(MATRICES / "hyperopt.yaml")
    assert isinstance(matrix, TpeMatrix)
    assert (matrix.kind, matrix.algorithm, matrix.num_runs, matrix.max_iterations) == (
        "tpe",
        "tpe",
        12,
        4,
    )
    assert matrix.tuner is not None
    assert matrix.tuner.hub_ref == "hyperopt-tuner"
    assert parse_matrix(matrix.to_dict()) == matrix


def test_fixture_bayes_settings():
    matrix = corpus_matrix(MATRICES / "bayes.yaml")
    assert isinstance(matrix, BayesMatrix)
    assert matrix.utility_function is not None
    assert matrix.utility_function.gaussian_process is not None
    assert matrix.utility_function.gaussian_process.nu == 2.5
    assert matrix.metric.optimization == "minimize"


def test_fixture_mapping_with_metric_early_stopping():
    matrix = corpus_matrix(MATRICES / "mapping-early-stopping.yaml")
    assert isinstance(matrix, MappingMatrix)
    assert matrix.early_stopping == [
        MetricEarlyStopping(metric="loss", value=0.001, optimization="minimize")
    ]


def test_fixture_hyperband_and_iterative():
    hyperband = corpus_matrix(MATRICES / "hyperband.yaml")
    assert isinstance(hyperband, HyperbandMatrix)
    assert (hyperband.max_iterations, hyperband.eta) == (9, 3)
    assert hyperband.early_stopping is not None
    assert [stop.kind for stop in hyperband.early_stopping] == [
        "metric_early_stopping",
        "failure_early_stopping",
    ]
    iterative = corpus_matrix(MATRICES / "iterative.yaml")
    assert isinstance(iterative, IterativeMatrix)
    assert iterative.max_iterations == 3


# -- every kind --------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(MINIMAL))
def test_each_kind_parses_and_round_trips(kind):
    matrix = parse_matrix(MINIMAL[kind])
    assert matrix.kind == kind
    assert matrix.is_adaptive == (kind in ADAPTIVE)
    assert parse_matrix(matrix.to_dict()) == matrix


@pytest.mark.parametrize("kind", sorted(MINIMAL))
def test_search_space_is_plain_json(kind):
    space = search_space(parse_matrix(MINIMAL[kind]))
    assert space["kind"] == kind
    assert json.loads(json.dumps(space)) == space


def test_search_space_describes_params_for_the_service():
    space = search_space(corpus_matrix(MATRICES / "bayes.yaml"))
    assert space["params"]["lr"] == {
        "kind": "linspace",
        "start": 0.005,
        "stop": 0.05,
        "num": 4,
    }
    assert space["params"]["dropout"] == {"kind": "choice", "values": [0.1, 0.2]}
    assert space["metric"] == METRIC
    assert space["numInitialRuns"] == 8
    assert space["utilityFunction"]["eps"] == 0.01


@pytest.mark.parametrize("kind", ADAPTIVE)
def test_adaptive_kinds_do_not_expand(kind):
    matrix = parse_matrix(MINIMAL[kind])
    for call in (expand, grid_size):
        with pytest.raises(SpecError) as info:
            call(matrix)
        (problem,) = info.value.problems
        assert problem.location == "matrix.kind"
        assert "adaptive" in problem.message
        assert problem.hint == "send search_space(matrix) to the optimization service"


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("grid", "numRuns"),
        ("grid", "concurrency"),
        ("random", "numRuns"),
        ("bayes", "numInitialRuns"),
        ("bayes", "maxIterations"),
        ("hyperband", "maxIterations"),
        ("tpe", "maxIterations"),
        ("tpe", "numRuns"),
        ("iterative", "maxIterations"),
        ("mapping", "concurrency"),
    ],
)
def test_counts_are_at_least_one_and_quoted_ints_are_accepted(kind, field):
    has_problem({**MINIMAL[kind], field: 0}, f"matrix.{field}", "greater than or equal to 1")
    has_problem({**MINIMAL[kind], field: 2.5}, f"matrix.{field}", "expected an integer")
    has_problem({**MINIMAL[kind], field: True}, f"matrix.{field}", "boolean")
    matrix = parse_matrix({**MINIMAL[kind], field: "10"})
    assert matrix.to_dict()[field] == 10


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        ("random", "params"),
        ("random", "numRuns"),
        ("grid", "params"),
        ("mapping", "values"),
        ("bayes", "params"),
        ("bayes", "numInitialRuns"),
        ("bayes", "maxIterations"),
        ("bayes", "metric"),
        ("tpe", "params"),
        ("tpe", "metric"),
        ("iterative", "maxIterations"),
    ],
)
def test_required_fields(kind, field):
    data = {k: v for k, v in MINIMAL[kind].items() if k != field}
    assert (f"matrix.{field}", "is required") in problems(data)


def test_unknown_kind_and_unknown_fields_are_located():
    assert problems({"kind": "sweep"}) == {
        (
            "matrix.kind",
            "matrix.kind must be one of grid, random, mapping, bayes, hyperband, tpe, "
            "iterative, hyperopt; got 'sweep'",
        )
    }
    ((location, message),) = problems({"params": {}})
    assert (location, message.endswith("; kind is missing")) == ("matrix.kind", True)
    has_problem({**MINIMAL["grid"], "numRun": 3}, "matrix.numRun", "is not a known field")


def test_matrix_is_usable_as_a_field_type():
    class Operation(SpecModel):
        matrix: Matrix | None = None

    op = Operation.model_validate({"matrix": MINIMAL["random"]})
    assert isinstance(op.matrix, RandomMatrix)
    assert Operation().matrix is None
    assert Operation.model_validate(op.to_dict()) == op


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
    matrix = parse_matrix({**MINIMAL["tpe"], "kind": "hyperopt", "algorithm": "anneal"})
    assert (matrix.kind, matrix.algorithm) == ("tpe", "anneal")  # type: ignore[union-attr]
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
    has_problem(
        {**MINIMAL["iterative"], "tuner": {"queue": "q"}}, "matrix.tuner.hubRef", "is required"
    )


# -- early stopping --------------------------------------------------------------------------


def test_early_stopping_policies():
    matrix = parse_matrix(
        {
            **MINIMAL["grid"],
            "earlyStopping": [
                {"kind": "failure_early_stopping", "percent": "50"},
                {
                    "kind": "metric_early_stopping",
                    "metric": "accuracy",
                    "value": 0.9,
                    "optimization": "MAXIMIZE",
                    "policy": {
                        "kind": "truncation",
                        "percent": 10,
                        "evaluationInterval": 2,
                        "includeSucceeded": True,
                    },
                },
                {
                    "kind": "metric_early_stopping",
                    "metric": "loss",
                    "value": "0.05",
                    "optimization": "minimize",
                    "policy": {"kind": "median", "evaluationInterval": 1, "minSamples": 3},
                },
                {
                    "kind": "metric_early_stopping",
                    "metric": "loss",
                    "value": 0.05,
                    "optimization": "minimize",
                    "policy": {"kind": "diff", "percent": 5, "evaluationInterval": 1},
                },
            ],
        }
    )
    assert matrix.early_stopping is not None
    failure, truncation, median, diff = matrix.early_stopping
    assert failure == FailureEarlyStopping(percent=50)
    assert isinstance(truncation, MetricEarlyStopping)
    assert truncation.optimization == "maximize"
    assert truncation.policy == TruncationStoppingPolicy(
        percent=10, evaluation_interval=2, include_succeeded=True
    )
    assert isinstance(median, MetricEarlyStopping)
    assert median.value == 0.05
    assert isinstance(diff, MetricEarlyStopping)
    assert diff.policy is not None
    assert diff.policy.kind == "diff"


@pytest.mark.parametrize(
    ("item", "location", "fragment"),
    [
        ({"kind": "failure_early_stopping", "percent": 0}, "matrix.earlyStopping[0]", "(0, 100]"),
        ({"kind": "failure_early_stopping", "percent": 150}, "matrix.earlyStopping[0]", "(0, 100]"),
        (
            {"kind": "metric_early_stopping", "metric": "loss", "value": 1},
            "matrix.earlyStopping[0].optimization",
            "is required",
        ),
        (
            {"kind": "metric_early_stopping", "metric": "l", "value": 1, "optimization": "down"},
            "matrix.earlyStopping[0].optimization",
            "'maximize' or 'minimize'",
        ),
        (
            {
                "kind": "metric_early_stopping",
                "metric": "l",
                "value": 1,
                "optimization": "minimize",
                "policy": {"kind": "mean"},
            },
            "matrix.earlyStopping[0].policy.kind",
            "policy.kind must be one of median, truncation, diff; got 'mean'",
        ),
        (
            {
                "kind": "metric_early_stopping",
                "metric": "l",
                "value": 1,
                "optimization": "minimize",
                "policy": {"kind": "median"},
            },
            "matrix.earlyStopping[0].policy.evaluationInterval",
            "is required",
        ),
        (
            {"kind": "stop_early"},
            "matrix.earlyStopping[0].kind",
            "earlyStopping.kind must be one of failure_early_stopping",
        ),
    ],
)
def test_early_stopping_rejections(item, location, fragment):
    has_problem({**MINIMAL["mapping"], "earlyStopping": [item]}, location, fragment)


def test_early_stopping_is_usable_as_a_field_type():
    class Dag(SpecModel):
        early_stopping: list[EarlyStopping] | None = None

    dag = Dag.model_validate({"earlyStopping": [{"kind": "failure_early_stopping", "percent": 20}]})
    assert dag.early_stopping == [FailureEarlyStopping(percent=20)]
