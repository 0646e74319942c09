"""Compile a DAG's operations, infer its edges and check them: orphans, cycles, ref outputs."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from axonal_spec.bindings import DagScope
from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.graph import OpEdges, topological_layers, upstream
from axonal_spec.models import Dag, Polyaxonfile
from axonal_spec.outcome import CompiledOperation
from axonal_spec.types import are_compatible

__all__ = ["OperationCompiler", "compile_dag", "edges_of"]


class OperationCompiler(Protocol):
    def child(
        self, op: Polyaxonfile, dag: Dag, scope: DagScope, *, origin: Path | None, location: str
    ) -> CompiledOperation: ...


def edges_of(op: Polyaxonfile) -> OpEdges:
    """Where an operation's upstream comes from: dependencies, param refs, event refs."""
    return OpEdges(
        dependencies=list(op.dependencies) if isinstance(op.dependencies, list) else [],
        param_refs=[p.ref for p in (op.params or {}).values() if p.ref],
        event_refs=[e.ref for e in (op.events if isinstance(op.events, list) else []) if e.ref],
    )


def _ref_problems(
    op: Polyaxonfile, compiled: CompiledOperation, by_name: dict[str, CompiledOperation], where: str
) -> list[Problem]:
    """``ref: ops.X`` + ``value: outputs.y``: X must declare y, of a type the input accepts."""
    problems = []
    inputs = {io.name: io for io in compiled.inputs}
    for name, param in (op.params or {}).items():
        upstream_op = by_name.get(param.ref_entity or "") if param.ref_kind == "ops" else None
        section, _, key = str(param.value).partition(".")
        if upstream_op is None or section != "outputs" or not key:
            continue
        outputs = {io.name: io for io in upstream_op.outputs}
        at = join_location(where, "params", name, "value")
        if key not in outputs:
            known = ", ".join(outputs) or "none"
            problems.append(
                Problem(at, f"op '{upstream_op.name}' has no output '{key}' (outputs: {known})")
            )
        elif name in inputs and not are_compatible(outputs[key].type, inputs[name].type):
            problems.append(
                Problem(
                    at,
                    f"output '{key}' of '{upstream_op.name}' is {outputs[key].type}, "
                    f"input '{name}' expects {inputs[name].type}",
                )
            )
    return problems


def compile_dag(
    compiler: OperationCompiler, dag: Dag, scope: DagScope, *, origin: Path | None, location: str
) -> tuple[list[CompiledOperation], dict[str, list[str]], list[list[str]]]:
    """The compiled operations, each op's upstream, and the topological layers."""
    ops = dag.operations if isinstance(dag.operations, list) else []
    base = join_location(location, "run", "operations")
    problems: list[Problem] = []
    compiled: dict[str, CompiledOperation] = {}
    for index, op in enumerate(ops):
        try:
            result = compiler.child(
                op, dag, scope, origin=origin, location=join_location(base, index)
            )
        except SpecError as exc:
            problems.extend(exc.problems)
        else:
            compiled[op.name or str(index)] = result
    edges = {op.name or str(i): edges_of(op) for i, op in enumerate(ops)}
    ups: dict[str, list[str]] = {}
    layers: list[list[str]] = []
    try:
        ups = upstream(edges, location=base)
        layers = topological_layers(edges, location=base)
    except SpecError as exc:
        problems.extend(exc.problems)
    for index, op in enumerate(ops):
        mine = compiled.get(op.name or str(index))
        if mine is not None:
            problems.extend(_ref_problems(op, mine, compiled, join_location(base, index)))
    if problems:
        raise SpecError(problems)
    return list(compiled.values()), ups, layers
