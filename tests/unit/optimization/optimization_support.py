"""Helpers of the optimization tests: search spaces compiled by the spec library from YAML."""

from textwrap import dedent, indent
from typing import Any

import yaml

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
