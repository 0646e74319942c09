"""Helpers of the optimization tests: search spaces compiled by the spec library from YAML,
and a loop that runs a study with a sampler."""

from collections.abc import Callable
from textwrap import dedent, indent
from typing import Any

import optuna
import yaml

from axonal_optimization.domain import samplers, spaces
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.parsing import load


def search_space(matrix: str) -> dict[str, Any]:
    """The search space the scheduler compiles from ``matrix`` (the YAML under ``matrix:``);
    every param (and the resource) is an optional input of the component."""
    body = dedent(matrix).strip() + "\n"
    data = yaml.safe_load(body)
    names = list(data.get("params") or {})
    if data.get("resource"):
        names.append(data["resource"]["name"])
    inputs = "".join(f"  - {{name: {name}, type: any, isOptional: true}}\n" for name in names)
    text = (
        "kind: operation\nmatrix:\n"
        + indent(body, "  ")
        + "component:\n  inputs:\n"
        + inputs
        + "  run: {kind: job, container: {image: busybox}}\n"
    )
    compiled = compile_operation(load(text), CompileOptions()).model_dump(mode="json")
    return compiled["matrix"]["search_space"]


def run_study(
    space: dict[str, Any],
    objective: Callable[[dict[str, Any]], float],
    trials: int,
    sampler: optuna.samplers.BaseSampler | None = None,
) -> optuna.Study:
    """Ask and tell ``trials`` trials one at a time, as the service does."""
    study = optuna.create_study(
        direction=samplers.direction(space),
        sampler=sampler or samplers.sampler_for(space, trials_so_far=0),
    )
    distributions = spaces.distributions(space["params"])
    for _ in range(trials):
        trial = study.ask(distributions)
        study.tell(trial, objective(spaces.decode(space["params"], trial.params)))
    return study
