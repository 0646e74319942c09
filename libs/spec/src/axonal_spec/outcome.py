"""What compilation produces: a fully resolved operation, JSON-able, with a content hash."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

__all__ = ["CompiledOperation", "Deferred", "MatrixPlan", "ResolvedIO"]


class _Out(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ResolvedIO(_Out):
    """An input or output with the value it will run with."""

    name: str
    type: str | None = None
    value: Any = None
    is_optional: bool = False
    source: str = Field(description="param, cli, default, dag, matrix, join, ref or none")


class Deferred(_Out):
    """A param known only at run time: an upstream op's output, a join, another run."""

    name: str
    ref: str | None = None
    value: Any = None
    source: str = Field(description="ref, join or matrix")


class MatrixPlan(_Out):
    """How a matrix fans out: the points of grid/random/mapping, the space of adaptive kinds."""

    kind: str
    concurrency: int | None = None
    size: int | None = None
    points: list[dict[str, Any]] | None = None
    search_space: dict[str, Any] | None = None


class CompiledOperation(_Out):
    """An operation ready to run: component resolved, patches applied, templates rendered.

    Strings that need run-time values (``deferred`` params, matrix params) keep their
    template; everything else is final. ``content_hash`` is the cache key: it covers the
    patched run, the values of inputs, outputs and context-only params, and the matrix, not
    the run's identity.
    """

    name: str | None = None
    description: str | None = None
    tags: list[str] = Field(default_factory=list)
    queue: str | None = None
    run_kind: str
    inputs: list[ResolvedIO] = Field(default_factory=list)
    outputs: list[ResolvedIO] = Field(default_factory=list)
    context_params: dict[str, Any] = Field(default_factory=dict)
    deferred: list[Deferred] = Field(default_factory=list)
    run: dict[str, Any]
    matrix: MatrixPlan | None = None
    operations: list[CompiledOperation] | None = None
    upstream: dict[str, list[str]] | None = None
    layers: list[list[str]] | None = None
    dependencies: list[str] = Field(default_factory=list)
    trigger: str | None = None
    conditions: str | None = None
    skip_on_upstream_skip: bool = False
    schedule: dict[str, Any] | None = None
    hooks: list[dict[str, Any]] = Field(default_factory=list)
    events: list[dict[str, Any]] = Field(default_factory=list)
    joins: list[dict[str, Any]] = Field(default_factory=list)
    build: dict[str, Any] | str | None = None  # a str: a template kept as written
    cache: dict[str, Any] | str | None = None  # a str: a template kept as written
    termination: dict[str, Any] | str | None = None  # a str: a template kept as written
    plugins: dict[str, Any] | str | None = None  # a str: a template kept as written
    is_approved: bool = True
    content_hash: str

    def input_values(self) -> dict[str, Any]:
        return {io.name: io.value for io in self.inputs}
