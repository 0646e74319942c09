"""Helpers of the compiler tests: compile a polyaxonfile text, collect its problems, and the
sample DAG and base component several of them build on."""

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.errors import SpecError
from axonal_spec.outcome import CompiledOperation, ResolvedIO
from axonal_spec.parsing import load

UUID = "0" * 32
OUTPUTS = f"/plx-context/artifacts/{UUID}/outputs"


def compile_text(text: str, *, origin: Path | None = None, **options: Any) -> CompiledOperation:
    return compile_operation(load(dedent(text)), CompileOptions(**options), origin=origin)


def problems(text: str, **options: Any) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as info:
        compile_text(text, **options)
    return [(p.location, p.message) for p in info.value.problems]


def io(compiled: CompiledOperation, name: str) -> ResolvedIO:
    return next(i for i in (*compiled.inputs, *compiled.outputs) if i.name == name)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(dedent(text))
    return path


DAG = """
    kind: component
    name: pipe
    inputs:
    - {name: data, type: str, value: "s3://bucket/data"}
    run:
      kind: dag
      components:
      - name: producer
        outputs: [{name: result, type: str}, {name: count, type: int}]
        run: {kind: job, container: {image: producer}}
      - name: consumer
        inputs: [{name: src, type: str}, {name: n, type: int, isOptional: true}]
        run: {kind: job, container: {image: consumer, args: ["--src={{ src }}", "{{ n }}"]}}
      operations:
"""


def dag(operations: str) -> str:
    return dedent(DAG) + "\n".join("  " + line for line in dedent(operations).splitlines())


BASE_COMPONENT = """
    kind: component
    name: base
    inputs: [{name: lr, type: float, value: 0.1}]
    run:
      kind: job
      container:
        image: base:1
        args: ["--lr={{ lr }}"]
        env: [{name: A, value: a}, {name: B, value: b}]
"""
