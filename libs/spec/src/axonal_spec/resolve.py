"""Find the component an operation runs: hub, URL, path, DAG component or inline."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from axonal_spec.errors import SpecError
from axonal_spec.hub import ComponentHub, PathResolver, UrlResolver, builtin_hub
from axonal_spec.models import Dag, Polyaxonfile
from axonal_spec.parsing import load

__all__ = ["Resolved", "Resolvers", "resolve_component"]


@dataclass(frozen=True)
class Resolvers:
    """The seams through which references are followed.

    Args:
        hub: ``hubRef`` (the registry service implements it; the built-in hub by default).
        urls: ``urlRef``; ``None`` means URLs cannot be fetched here (a clear error).
        paths: ``pathRef``, relative to the referencing file.
    """

    hub: ComponentHub = field(default_factory=builtin_hub)
    urls: UrlResolver | None = None
    paths: PathResolver = field(default_factory=PathResolver)


@dataclass(frozen=True)
class Resolved:
    """A component and the file it came from (for the ``pathRef`` s inside it)."""

    component: Polyaxonfile
    origin: Path | None


def _document(text_or_doc: str | Mapping[str, object], where: str) -> Polyaxonfile:
    return load(text_or_doc if isinstance(text_or_doc, str) else dict(text_or_doc), location=where)


def resolve_component(
    op: Polyaxonfile,
    resolvers: Resolvers,
    *,
    origin: Path | None = None,
    dag: Dag | None = None,
) -> Resolved:
    """The component ``op`` points at; ``op`` itself when it carries no reference."""
    kind = op.reference_kind
    if kind is None:
        return Resolved(op, origin)
    if kind == "component":
        assert op.component is not None
        return Resolved(op.component, origin)
    if kind == "dag":
        component = dag.component_named(op.dag_ref or "") if dag is not None else None
        if component is None:
            raise SpecError.at("dagRef", f"no component named '{op.dag_ref}' in this dag")
        return Resolved(component, origin)
    if kind == "hub":
        return Resolved(
            _document(resolvers.hub.resolve(op.hub_ref or ""), f"hub:{op.hub_ref}"), None
        )
    if kind == "url":
        if resolvers.urls is None:
            raise SpecError.at(
                "urlRef",
                f"cannot fetch {op.url_ref}: no URL resolver configured",
                hint="download the file and use pathRef, or map the URL to a local file",
            )
        return Resolved(_document(resolvers.urls.fetch(op.url_ref or ""), op.url_ref or ""), None)
    path = resolvers.paths.resolve(op.path_ref or "", referrer=origin)
    text = resolvers.paths.read(op.path_ref or "", referrer=origin)
    return Resolved(_document(text, str(path)), path)
