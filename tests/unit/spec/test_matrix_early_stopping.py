"""Matrices: early stopping on failures or on a metric, and its policies."""

import pytest

from axonal_spec.base import SpecModel
from axonal_spec.matrix import (
    EarlyStopping,
    FailureEarlyStopping,
    MetricEarlyStopping,
    TruncationStoppingPolicy,
    parse_matrix,
)

from .matrix_support import MINIMAL, has_problem

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
