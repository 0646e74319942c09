"""The ``dag`` runtime: operations and the components they share through ``dagRef``.

Checked here: every operation has a name and names are unique; component names are unique;
each ``dagRef`` names a component of this DAG; params of ``dagRef`` operations respect the
component's inputs/outputs (``contextOnly``/``strictParams``). Edges, orphans and cycles are
the graph's job (:mod:`axonal_spec.graph`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

from pydantic import model_validator

from axonal_spec.base import SpecModel
from axonal_spec.matrix import EarlyStopping
from axonal_spec.models.fields import OrRef, PositiveIntOrRef, RuleViolation
from axonal_spec.models.k8s import Environment, Volume
from axonal_spec.models.params import check_params

if TYPE_CHECKING:
    from axonal_spec.models.polyaxonfile import Polyaxonfile

__all__ = ["Dag"]

Problems = list[tuple[tuple[str | int, ...], str]]


class Dag(SpecModel):
    """A pipeline of operations; ``environment``/``connections``/``volumes`` apply to all."""

    kind: Literal["dag"] = "dag"
    operations: OrRef[list[Polyaxonfile]] | None = None
    components: OrRef[list[Polyaxonfile]] | None = None
    environment: OrRef[Environment] | None = None
    connections: OrRef[list[str]] | None = None
    volumes: OrRef[list[Volume]] | None = None
    concurrency: PositiveIntOrRef | None = None
    early_stopping: OrRef[list[EarlyStopping]] | None = None

    @model_validator(mode="after")
    def _names_and_refs(self) -> Dag:
        operations = self.operations if isinstance(self.operations, list) else []
        components = self.components if isinstance(self.components, list) else []
        problems: Problems = []
        by_name = _unique_components(components, problems)
        seen: dict[str, int] = {}
        for index, op in enumerate(operations):
            where: tuple[str | int, ...] = ("operations", index)
            if not op.name:
                problems.append(((*where, "name"), "a DAG operation needs a name"))
            elif op.name in seen:
                problems.append(
                    (
                        (*where, "name"),
                        f"duplicate operation name '{op.name}' (also operations[{seen[op.name]}])",
                    )
                )
            else:
                seen[op.name] = index
            if op.dag_ref is None:
                continue
            component = by_name.get(op.dag_ref)
            if component is None:
                known = ", ".join(sorted(by_name)) or "none"
                problems.append(
                    (
                        (*where, "dagRef"),
                        f"dagRef '{op.dag_ref}' names no component of this DAG "
                        f"(components: {known})",
                    )
                )
            elif op.params:
                strict = bool(op.strict_params or component.strict_params)
                declared = [
                    io.name for io in (*(component.inputs or ()), *(component.outputs or ()))
                ]
                problems.extend(
                    ((*where, *loc), message)
                    for loc, message in check_params(op.params, declared, strict=strict)
                )
        if problems:
            raise RuleViolation(problems)
        return self

    def component_named(self, name: str) -> Polyaxonfile | None:
        """The component of ``run.components`` named ``name`` (a ``dagRef`` target)."""
        components = self.components if isinstance(self.components, list) else []
        return next((c for c in components if c.name == name), None)


def _unique_components(
    components: list[Polyaxonfile], problems: Problems
) -> dict[str, Polyaxonfile]:
    by_name: dict[str, Polyaxonfile] = {}
    first: dict[str, int] = {}
    for index, component in enumerate(components):
        if not component.name:
            continue
        if component.name in by_name:
            problems.append(
                (
                    ("components", index, "name"),
                    f"duplicate component name '{component.name}' "
                    f"(also components[{first[component.name]}])",
                )
            )
            continue
        by_name[component.name] = component
        first[component.name] = index
    return by_name
