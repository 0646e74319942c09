"""The one model of a polyaxonfile: component, operation, kindless file or preset fragment.

As in Polyaxon 2.18, components and operations share every field and differ only by
``kind`` (optional). ``version`` is accepted and ignored. An operation points at its
component through at most one of ``hubRef``, ``dagRef``, ``urlRef``, ``pathRef`` (unless it
is a preset) or an inline ``component``; both together are valid and the component wins.
The 2.18 root shortcuts (``container``, ``cmd``, ``env``, ``resources``, ``ports``,
``environment``, ``init``, ``connections``, ``sidecars``, ``volumes``) are kept as written;
the compiler lowers them into ``run``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Discriminator, StrictStr, Tag, model_validator

from axonal_spec.base import SpecModel
from axonal_spec.matrix import Matrix
from axonal_spec.models.dag import Dag
from axonal_spec.models.fields import (
    BoolOrRef,
    FloatOrRef,
    Int,
    Name,
    OrRef,
    RuleViolation,
    StrList,
    TextOrList,
)
from axonal_spec.models.helpers import (
    Build,
    Cache,
    EventTrigger,
    Hook,
    Join,
    Mount,
    PatchStrategy,
    Plugins,
    Schedule,
    Template,
    Termination,
    TriggerPolicy,
)
from axonal_spec.models.io import IO
from axonal_spec.models.k8s import Container, Environment, Init, Quantity, ResourceRange, Volume
from axonal_spec.models.params import Params
from axonal_spec.models.rules import check_polyaxonfile
from axonal_spec.models.runtimes import RunOrPatch, Runtime

__all__ = ["Polyaxonfile", "ReferenceKind"]

ReferenceKind = Literal["hub", "dag", "url", "path", "component"]

ResourceValue = Annotated[
    Union[Annotated[Quantity, Tag("~quantity")], Annotated[ResourceRange, Tag("~range")]],  # noqa: UP007
    Discriminator(lambda v: "~range" if isinstance(v, Mapping | BaseModel) else "~quantity"),
]
MountItem = Annotated[
    Union[Annotated[str, Tag("~path")], Annotated[Mount, Tag("~mount")]],  # noqa: UP007
    Discriminator(lambda v: "~mount" if isinstance(v, Mapping | BaseModel) else "~path"),
]


class Polyaxonfile(SpecModel):
    """A component, an operation, a kindless file or a preset fragment."""

    version: float | None = None
    kind: Literal["component", "operation"] | None = None
    name: Name | None = None
    description: str | None = None
    tags: StrList | None = None
    presets: StrList | None = None
    strict_params: bool | None = None
    queue: str | None = None
    namespace: str | None = None
    cache: OrRef[Cache] | None = None
    termination: OrRef[Termination] | None = None
    plugins: OrRef[Plugins] | None = None
    build: OrRef[Build] | None = None
    hooks: OrRef[list[Hook]] | None = None
    is_approved: BoolOrRef | None = None
    cost: FloatOrRef | None = None
    mount: list[MountItem] | None = None
    # Operation fields.
    params: Params | None = None
    schedule: Schedule | None = None
    events: OrRef[list[EventTrigger]] | None = None
    matrix: Matrix | None = None
    joins: OrRef[list[Join]] | None = None
    dependencies: OrRef[list[str]] | None = None
    trigger: OrRef[TriggerPolicy] | None = None
    conditions: str | None = None
    skip_on_upstream_skip: bool | None = None
    # Component fields and references.
    inputs: list[IO] | None = None
    outputs: list[IO] | None = None
    run: RunOrPatch | None = None
    template: Template | None = None
    hub_ref: str | None = None
    dag_ref: str | None = None
    url_ref: str | None = None
    path_ref: str | None = None
    component: Polyaxonfile | None = None
    run_patch: dict[str, Any] | None = None
    patch_strategy: PatchStrategy | None = None
    is_preset: bool | None = None
    # 2.18 root shortcuts, lowered into ``run`` by the compiler.
    container: Container | None = None
    cmd: TextOrList | None = None
    env: dict[str, StrictStr] | None = None
    resources: dict[str, ResourceValue] | None = None
    ports: list[Int] | None = None
    environment: Environment | None = None
    init: list[Init] | None = None
    connections: list[str] | None = None
    sidecars: list[Container] | None = None
    volumes: list[Volume] | None = None

    @model_validator(mode="before")
    @classmethod
    def _inherit_run_kind(cls, data: Any) -> Any:
        """A kindless ``run`` next to an inline component takes the component's run kind."""
        if not isinstance(data, Mapping):
            return data
        run, component = data.get("run"), data.get("component")
        if isinstance(run, Mapping) and run.get("kind") is None and isinstance(component, Mapping):
            kind = (
                component.get("run", {}).get("kind")
                if isinstance(component.get("run"), Mapping)
                else None
            )
            if isinstance(kind, str):
                return {**data, "run": {**run, "kind": kind}}
        return data

    @model_validator(mode="after")
    def _rules(self) -> Polyaxonfile:
        problems = check_polyaxonfile(self)
        if problems:
            raise RuleViolation(problems)
        return self

    @property
    def references(self) -> list[ReferenceKind]:
        """Every reference set: at most one of ``hubRef``/``dagRef``/``urlRef``/``pathRef``
        (unless this is a preset), plus possibly an inline ``component``."""
        pairs: tuple[tuple[ReferenceKind, object], ...] = (
            ("hub", self.hub_ref),
            ("dag", self.dag_ref),
            ("url", self.url_ref),
            ("path", self.path_ref),
            ("component", self.component),
        )
        return [kind for kind, value in pairs if value is not None and value != ""]

    @property
    def reference_kind(self) -> ReferenceKind | None:
        """How an operation finds its component: ``hub``/``dag``/``url``/``path``/``component``.

        As in Polyaxon, an inline ``component`` next to a named reference is that reference
        already resolved (what a client stores after following it): the component wins.
        """
        references = self.references
        if "component" in references:
            return "component"
        return references[0] if references else None

    @property
    def reference(self) -> str | Polyaxonfile | None:
        """The reference itself: a hub name, DAG component name, URL, path, or the component."""
        return {
            None: None,
            "hub": self.hub_ref,
            "dag": self.dag_ref,
            "url": self.url_ref,
            "path": self.path_ref,
            "component": self.component,
        }[self.reference_kind]

    @property
    def runtime(self) -> Runtime | None:
        """This file's own runtime (``None`` when ``run`` is missing or a kindless patch)."""
        return None if self.run is None or isinstance(self.run, dict) else self.run

    @property
    def run_kind(self) -> str | None:
        """The kind of this file's runtime, or of its inline component's."""
        if self.runtime is not None:
            return self.runtime.kind
        return self.component.run_kind if self.component is not None else None

    @property
    def is_fragment(self) -> bool:
        """A preset fragment: ``isPreset``, or a kindless file with nothing but patchable keys
        (no reference, no runtime, and no ``container``/``cmd`` shortcut that would run)."""
        if self.is_preset:
            return True
        runnable = self.runtime is not None or self.container is not None or self.cmd is not None
        return self.kind is None and not self.references and not runnable

    @property
    def dag(self) -> Dag | None:
        """The ``dag`` runtime, if this file is a pipeline."""
        return self.runtime if isinstance(self.runtime, Dag) else None

    def io(self) -> list[IO]:
        """Inputs then outputs."""
        return [*(self.inputs or ()), *(self.outputs or ())]


Dag.model_rebuild(_types_namespace={"Polyaxonfile": Polyaxonfile})
Polyaxonfile.model_rebuild()
