"""Compile a polyaxonfile into a fully resolved :class:`CompiledOperation`.

Order of work: resolve the component (hub, URL, path, DAG component, inline); lower root
shortcuts and apply ``runPatch`` with its patch strategy; bind params to inputs and outputs
(``-P`` values, params, defaults, ``ref: dag``), converting and validating them; build the
context (globals, params, connections) and render templates, keeping those that need
run-time values; plan the matrix; compile DAG operations and order them. Every problem found
is raised together in one :class:`SpecError`.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from axonal_spec.bindings import Bindings, DagScope, bind
from axonal_spec.composition import apply_run_patch, patch_values
from axonal_spec.context import build_context, build_globals
from axonal_spec.dag_check import compile_dag
from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.lowering import implied_kind, shortcut_patch
from axonal_spec.matrix_plan import late_matrix_names, plan_matrix
from axonal_spec.models import Dag, Polyaxonfile
from axonal_spec.outcome import CompiledOperation, MatrixPlan
from axonal_spec.rendering import render_available
from axonal_spec.resolve import Resolvers, resolve_component
from axonal_spec.service_values import service_ports
from axonal_spec.templates import find_references

__all__ = ["CompileOptions", "compile_operation"]

_PLACEHOLDER_UUID = "0" * 32


@dataclass(frozen=True)
class CompileOptions:
    """Who runs it and with what.

    Args:
        params: ``-P`` values for the root operation's inputs.
        uuid: the run's uuid (hex); random matrices without a ``seed`` are seeded from it.
        project, owner: globals for templates.
        connections: connection name -> schema, for ``{{ connections['x'] }}``.
        resolvers: how ``hubRef``/``urlRef``/``pathRef`` are followed.
    """

    params: Mapping[str, Any] = field(default_factory=dict)
    uuid: str = _PLACEHOLDER_UUID
    project: str = "default"
    owner: str = "default"
    connections: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    resolvers: Resolvers = field(default_factory=Resolvers)


def _problems(exc: SpecError, location: str) -> list[Problem]:
    return list(exc.prefixed(location).problems) if location else list(exc.problems)


def _run_of(component: Polyaxonfile, op: Polyaxonfile) -> dict[str, Any]:
    """The component's run with its shortcuts, then the operation's ``runPatch`` (presets
    put theirs there too), shortcuts and kindless ``run`` applied with its patch strategy."""
    if component.runtime is not None:
        run: dict[str, Any] = component.runtime.to_dict()
    elif component.container is not None or component.cmd is not None:
        run = {"kind": implied_kind(component)}
    else:
        raise SpecError.at("run", "nothing to run: the component has no run, container or cmd")
    run = patch_values(run, shortcut_patch(component), key="run")
    patch: dict[str, Any] = dict(op.run_patch or {})
    if op is not component:
        patch = patch_values(patch, shortcut_patch(op), key="run")
        if op.run is not None:  # next to ``component`` a kindless run was given its kind
            own = op.run if isinstance(op.run, dict) else op.run.to_dict()
            extra = {k: v for k, v in own.items() if k != "kind"}
            patch = patch_values(patch, extra, key="run")
    return apply_run_patch(run, patch or None, op.patch_strategy).to_dict()


def _hash(*parts: Any) -> str:
    canonical = json.dumps(parts, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _dump(value: Any) -> Any:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        return [_dump(v) for v in value]
    return value.to_dict() if hasattr(value, "to_dict") else value


def compile_operation(
    doc: Polyaxonfile,
    options: CompileOptions | None = None,
    *,
    origin: Path | None = None,
) -> CompiledOperation:
    """Compile ``doc`` (a component or an operation); ``origin`` is the file it came from."""
    return _Compiler(options or CompileOptions()).compile(doc, origin=origin)


class _Compiler:
    def __init__(self, options: CompileOptions) -> None:
        self.options = options

    def child(
        self, op: Polyaxonfile, dag: Dag, scope: DagScope, *, origin: Path | None, location: str
    ) -> CompiledOperation:
        return self.compile(op, origin=origin, dag=dag, scope=scope, location=location)

    def compile(
        self,
        op: Polyaxonfile,
        *,
        origin: Path | None,
        dag: Dag | None = None,
        scope: DagScope | None = None,
        location: str = "",
    ) -> CompiledOperation:
        try:
            resolved = resolve_component(op, self.options.resolvers, origin=origin, dag=dag)
            run = _run_of(resolved.component, op)
        except SpecError as exc:
            raise SpecError(_problems(exc, location)) from None
        build = _Build(self, op, resolved.component, run, location)
        cli = dict(self.options.params) if scope is None and not location else {}
        build.bind(cli, scope)
        build.expand_dag(resolved.origin)
        build.render()
        build.plan_matrix()
        return build.result()


class _Build:
    """The compilation of one operation; problems accumulate and are raised at the end."""

    def __init__(
        self,
        compiler: _Compiler,
        op: Polyaxonfile,
        component: Polyaxonfile,
        run: dict[str, Any],
        location: str,
    ) -> None:
        self.compiler, self.options = compiler, compiler.options
        self.op, self.component, self.location = op, component, location
        self.patched_run = run
        self.run = run
        self.name = op.name or component.name
        self.problems: list[Problem] = []
        self.bindings = Bindings()
        self.bound = False
        self.late = late_matrix_names(op.matrix) | {
            name: "join"
            for join in (op.joins if isinstance(op.joins, list) else [])
            for name in join.params or {}
        }
        self.context: dict[str, Any] = {}
        self.operations: list[CompiledOperation] | None = None
        self.upstream: dict[str, list[str]] | None = None
        self.layers: list[list[str]] | None = None
        self.matrix: MatrixPlan | None = None
        self.rendered_lists: dict[str, list[dict[str, Any]]] = {}

    def fail(self, exc: SpecError, *parts: str) -> None:
        self.problems.extend(_problems(exc, join_location(self.location, *parts)))

    def bind(self, cli: Mapping[str, Any], scope: DagScope | None) -> None:
        declared = {io.name for io in self.component.io()}
        known = ", ".join(sorted(declared)) or "none"
        for name in sorted(set(cli) - declared):
            message = f"-P {name}: no input or output named '{name}' (inputs: {known})"
            self.problems.append(Problem("params", message))
        # A file without a reference is its own operation: its params apply too.
        params = dict(self.op.params or {})
        run_globals = build_globals(
            uuid=self.options.uuid,
            project_name=self.options.project,
            owner_name=self.options.owner,
            name=self.name,
            ports=service_ports(self.run),
        )
        try:
            self.bindings = bind(
                list(self.component.inputs or []),
                list(self.component.outputs or []),
                params,
                cli=cli,
                late=self.late,
                scope=scope,
                run_globals=run_globals,
            )
            self.bound = True
        except SpecError as exc:
            self.fail(exc)  # templates would only repeat that values are missing
        self.context = build_context(
            run_globals=run_globals,
            inputs=self.bindings.infos.get("inputs", []),
            outputs=self.bindings.infos.get("outputs", []),
            context_params=self.bindings.infos.get("context", []),
            connections=self.options.connections,
        )

    @property
    def later(self) -> set[str]:
        return self.bindings.deferred_names | set(self.late)

    def expand_dag(self, origin: Path | None) -> None:
        if self.run.get("kind") != "dag":
            return
        values = {io.name: io.value for io in self.bindings.inputs}
        scope = DagScope(inputs=values, context=self.context)
        try:
            self.operations, self.upstream, self.layers = compile_dag(
                self.compiler,
                Dag.model_validate(self.run),
                scope,
                origin=origin,
                location=self.location,
            )
        except SpecError as exc:
            self.problems.extend(exc.problems)
        self.run = {k: v for k, v in self.run.items() if k not in ("operations", "components")}

    def render(self) -> None:
        where = join_location(self.location, "run")
        if not self.bound:  # values are missing: only report what is wrong in the templates
            try:
                find_references(self.run, location=where)
            except SpecError as exc:
                self.problems.extend(exc.problems)
            return
        try:
            self.run = render_available(self.run, self.context, self.later, location=where)
        except SpecError as exc:
            self.problems.extend(exc.problems)
        for key in ("hooks", "events", "joins"):
            self._render_list(key)
        if not self.op.conditions:
            return
        try:
            unknown = find_references(self.op.conditions) - set(self.context) - self.later
        except SpecError as exc:
            self.fail(exc, "conditions")
            return
        if unknown:
            message = f"unknown names: {', '.join(sorted(unknown))}"
            self.problems.append(Problem(join_location(self.location, "conditions"), message))

    def _render_list(self, key: str) -> None:
        """A ``{{ }}`` given for hooks/events/joins must render to a list of mappings."""
        value = getattr(self.op, key)
        if key == "hooks" and value is None:
            value = self.component.hooks
        if not isinstance(value, str):
            return
        where = join_location(self.location, key)
        try:
            rendered = render_available(value, self.context, self.later, location=where)
        except SpecError as exc:
            self.problems.extend(exc.problems)
            return
        if not (isinstance(rendered, list) and all(isinstance(v, dict) for v in rendered)):
            self.problems.append(Problem(where, f"{key} must render to a list of mappings"))
            return
        self.rendered_lists[key] = rendered

    def plan_matrix(self) -> None:
        if self.op.matrix is None:
            return
        try:
            self.matrix = plan_matrix(self.op.matrix, self.component, seed=self.options.uuid)
        except SpecError as exc:
            self.fail(exc, "matrix")

    def _list(self, key: str, value: Any) -> list[dict[str, Any]]:
        if isinstance(value, str):
            return self.rendered_lists.get(key, [])
        dumped: list[dict[str, Any]] = _dump(value) or []
        return dumped

    def result(self) -> CompiledOperation:
        if self.problems:
            raise SpecError(self.problems)
        op, component = self.op, self.component
        values = {
            "inputs": {io.name: io.value for io in self.bindings.inputs},
            "outputs": {io.name: io.value for io in self.bindings.outputs},
            "context": self.bindings.context_params,
        }
        children = [o.content_hash for o in self.operations or []]
        matrix = self.matrix.model_dump() if self.matrix else None
        return CompiledOperation(
            name=self.name,
            description=op.description or component.description,
            tags=list(op.tags or component.tags or []),
            queue=op.queue or component.queue,
            run_kind=str(self.run["kind"]),
            inputs=self.bindings.inputs,
            outputs=self.bindings.outputs,
            context_params=self.bindings.context_params,
            deferred=self.bindings.deferred,
            run=self.run,
            matrix=self.matrix,
            operations=self.operations,
            upstream=self.upstream,
            layers=self.layers,
            dependencies=list(op.dependencies) if isinstance(op.dependencies, list) else [],
            trigger=op.trigger if isinstance(op.trigger, str) else None,
            conditions=op.conditions,
            skip_on_upstream_skip=bool(op.skip_on_upstream_skip),
            schedule=_dump(op.schedule),
            hooks=self._list("hooks", op.hooks or component.hooks),
            events=self._list("events", op.events),
            joins=self._list("joins", op.joins),
            build=_dump(op.build or component.build),
            cache=_dump(op.cache or component.cache),
            termination=_dump(op.termination or component.termination),
            plugins=_dump(op.plugins or component.plugins),
            is_approved=op.is_approved is not False,
            content_hash=_hash(self.patched_run, values, matrix, children),
        )
