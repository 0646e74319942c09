"""A matrix's objective: the search's metric, else its metric early stopping's."""

from axonal_events.runs import Objective
from axonal_scheduler.domain.objective import objective

STOP = {"kind": "metric_early_stopping", "metric": "val_loss", "value": 0.1}


def test_an_adaptive_search_names_its_metric():
    compiled = {"matrix": {"kind": "bayes", "search_space": {"metric": {"name": "acc"}}}}
    assert objective(compiled, []) == Objective(metric="acc", optimization="maximize")
    compiled["matrix"]["search_space"]["metric"]["optimization"] = "Minimize"
    assert objective(compiled, [STOP]) == Objective(metric="acc", optimization="minimize")


def test_a_grid_takes_the_metric_of_its_early_stopping():
    compiled = {"matrix": {"kind": "grid", "points": [{"lr": 0.1}]}}
    failure = {"kind": "failure_early_stopping", "percent": 50}
    stop = {**STOP, "optimization": "minimize"}
    assert objective(compiled, [failure, stop]) == Objective(
        metric="val_loss", optimization="minimize"
    )
    assert objective(compiled, [failure]) is None


def test_runs_that_are_no_matrix_have_none():
    assert objective({"run_kind": "job", "matrix": None}, [STOP]) is None
    assert objective({}, []) is None
