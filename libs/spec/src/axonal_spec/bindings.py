"""Bind a component's inputs and outputs to values: params, ``-P`` values, defaults, refs.

Sources, strongest first: ``-P`` values (the root operation only), the operation's params,
the IO's default. A ``ref: dag`` param reads the enclosing DAG's inputs or globals now; a
``ref: ops.X`` / ``runs.X`` param, a join param and a matrix param are *deferred*: known only
at run time. Values are converted to the IO's type and validated; every required input left
without a value is reported in one error.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from typing import Any

from axonal_spec.context import ParamInfo
from axonal_spec.errors import Problem, SpecError, join_location
from axonal_spec.models import IO, Param
from axonal_spec.outcome import Deferred, ResolvedIO
from axonal_spec.templates import is_template, render
from axonal_spec.types import convert, parse_type, validate

__all__ = ["Bindings", "DagScope", "bind"]


@dataclass(frozen=True)
class DagScope:
    """What a DAG gives its operations: its input values and its rendering context."""

    inputs: Mapping[str, Any]
    context: Mapping[str, Any]


@dataclass
class Bindings:
    inputs: list[ResolvedIO] = field(default_factory=list)
    outputs: list[ResolvedIO] = field(default_factory=list)
    infos: dict[str, list[ParamInfo]] = field(default_factory=dict)
    context_params: dict[str, Any] = field(default_factory=dict)
    deferred: list[Deferred] = field(default_factory=list)

    @property
    def deferred_names(self) -> set[str]:
        return {d.name for d in self.deferred}


class _Binder:
    def __init__(
        self,
        params: Mapping[str, Param],
        cli: Mapping[str, Any],
        *,
        late: Mapping[str, str],
        scope: DagScope | None,
        run_globals: Mapping[str, Any],
    ) -> None:
        self.params, self.cli, self.late, self.scope = params, cli, late, scope
        self.run_globals = run_globals
        self.problems: list[Problem] = []
        self.out = Bindings()

    def value(self, name: str, param: Param | None, default: Any) -> tuple[Any, str]:
        """The raw value of ``name`` and where it came from."""
        if name in self.cli:
            return self.cli[name], "cli"
        if name in self.late:
            self.out.deferred.append(Deferred(name=name, source=self.late[name]))
            return None, self.late[name]
        if param is None:
            return default, "default" if default is not None else "none"
        if param.ref is not None:
            return self.from_ref(name, param)
        if param.is_template:
            return self.render_param(name, param.value), "param"
        return param.value, "param"

    def from_ref(self, name: str, param: Param) -> tuple[Any, str]:
        where = join_location("params", name)
        if param.ref_kind != "dag":
            self.out.deferred.append(
                Deferred(name=name, ref=param.ref, value=param.value, source="ref")
            )
            return None, "ref"
        if self.scope is None:
            self.problems.append(Problem(join_location(where, "ref"), "ref: dag outside a dag"))
            return None, "dag"
        section, _, key = str(param.value).partition(".")
        values = self.scope.inputs if section == "inputs" else self.scope.context.get("globals", {})
        if section not in ("inputs", "globals") or (key and key not in values):
            message = f"the dag has no {param.value}"
            self.problems.append(Problem(join_location(where, "value"), message))
            return None, "dag"
        return (values[key] if key else dict(values)), "dag"

    def render_param(self, name: str, template: str) -> Any:
        context = self.scope.context if self.scope is not None else {"globals": self.run_globals}
        try:
            return render(template, context, location=join_location("params", name))
        except SpecError as exc:
            self.problems.extend(exc.problems)
            return None

    def bind_io(self, io: IO, section: str, index: int) -> None:
        param = self.params.get(io.name)
        raw, source = self.value(io.name, param, io.value)
        where = (
            join_location(section, index)
            if source == "default"
            else join_location("params", io.name)
        )
        value = self.convert(io, raw, where) if source not in ("ref", "join", "matrix") else raw
        resolved = ResolvedIO(
            name=io.name, type=io.type, value=value, is_optional=bool(io.is_optional), source=source
        )
        (self.out.inputs if section == "inputs" else self.out.outputs).append(resolved)
        self.out.infos.setdefault(section, []).append(
            ParamInfo(
                io.name,
                value,
                io.type,
                (param.connection if param else None) or io.connection,
                bool(io.is_flag),
                io.arg_format,
            )
        )

    def convert(self, io: IO, raw: Any, where: str) -> Any:
        if raw is None or is_template(raw):
            return raw
        try:
            io_type = parse_type(io.type, is_list=bool(io.is_list), location=where)
            value = convert(io_type, raw, location=where)
            validation = io.validation.to_dict() if io.validation else {}
            if validation and not validation.pop("delay", False):
                validate(value, validation, location=where)
        except SpecError as exc:
            self.problems.extend(exc.problems)
            return raw
        return value

    def bind_context_only(self, declared: Set[str]) -> None:
        for name, param in self.params.items():
            if name in declared:
                continue
            value, _ = self.value(name, param, None)
            self.out.context_params[name] = value
            self.out.infos.setdefault("context", []).append(
                ParamInfo(name, value, connection=param.connection, context_only=True)
            )


def bind(
    inputs: list[IO],
    outputs: list[IO],
    params: Mapping[str, Param],
    *,
    cli: Mapping[str, Any] | None = None,
    late: Mapping[str, str] | None = None,
    scope: DagScope | None = None,
    run_globals: Mapping[str, Any] | None = None,
) -> Bindings:
    """Values for every IO and context-only param; raises one :class:`SpecError` for all problems.

    ``late`` maps names known only at run time to their source (``matrix``, ``join``).
    Template params render against the DAG's context inside a DAG, else against
    ``run_globals`` (``{{ globals.run_outputs_path }}/model``).
    """
    binder = _Binder(params, cli or {}, late=late or {}, scope=scope, run_globals=run_globals or {})
    for section, ios in (("inputs", inputs), ("outputs", outputs)):
        for index, io in enumerate(ios):
            binder.bind_io(io, section, index)
    binder.bind_context_only({io.name for io in (*inputs, *outputs)} | set(cli or {}))
    missing = [
        io.name
        for io, bound in zip(inputs, binder.out.inputs, strict=True)
        if io.is_required and bound.value is None and bound.source not in ("ref", "join", "matrix")
    ]
    if missing:
        names = ", ".join(missing)
        hint = (
            "set them under this operation's params"
            if scope is not None
            else "pass them as params, e.g. " + " ".join(f"-P {n}=..." for n in missing)
        )
        binder.problems.append(Problem("inputs", f"required inputs without a value: {names}", hint))
    if binder.problems:
        raise SpecError(binder.problems)
    return binder.out
