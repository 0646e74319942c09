"""Helpers of the matrix tests: parse a file's matrix, collect problems, minimal matrices."""

import pytest
import yaml

from axonal_spec.errors import SpecError
from axonal_spec.matrix import (
    parse_matrix,
)


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
