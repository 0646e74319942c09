"""Matrices: the fixtures' matrices, and what every kind shares (parsing, search spaces,
required fields, located errors)."""

import json

import pytest
import yaml

from axonal_spec.base import SpecModel
from axonal_spec.errors import SpecError
from axonal_spec.matrix import (
    BayesMatrix,
    GridMatrix,
    HyperbandMatrix,
    IterativeMatrix,
    MappingMatrix,
    Matrix,
    MetricEarlyStopping,
    RandomMatrix,
    TpeMatrix,
    expand,
    grid_size,
    parse_matrix,
    search_space,
)
from axonal_testing.conformance import project_fixtures

from .matrix_support import ADAPTIVE, METRIC, MINIMAL, corpus_matrix, has_problem, problems

FIXTURES = project_fixtures() / "polyaxonfiles"
MATRICES = FIXTURES / "matrices"


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
    assert found == 16


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
