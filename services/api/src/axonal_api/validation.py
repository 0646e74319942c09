"""Submit-time validation with ``axonal_spec``: the same load/compose/compile as ``check``,
reporting the problems of every phase of a single file at once as ``check`` does, and the
fields the local agent would ignore as warnings."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from axonal_spec import (
    CompileOptions,
    Polyaxonfile,
    Resolvers,
    SpecError,
    compile_operation,
    compose,
    load,
)
from axonal_spec.checking import with_later_phases
from axonal_spec.errors import Problem
from axonal_spec.hub import ComponentHub, PathResolver, builtin_hub
from axonal_spec.support_check import ignored_fields

__all__ = ["NoPaths", "problems_of", "validate_submission"]


class NoPaths(PathResolver):
    """``pathRef`` names a file on the submitter's disk, never one on the api's server."""

    def resolve(self, path_ref: str, *, referrer: Path | str | None = None) -> Path:
        raise SpecError.at(
            "pathRef",
            f"`{path_ref}` cannot be read by the api: a submitted file cannot refer to files",
            hint="inline the component, or use hubRef/urlRef",
        )


def _load_all(texts: Sequence[str], label: str) -> list[Polyaxonfile]:
    docs: list[Polyaxonfile] = []
    problems: list[Problem] = []
    for i, text in enumerate(texts):
        where = f"{label}[{i}]"
        try:
            docs.append(load(text, location=where))
        except SpecError as exc:
            problems += [
                Problem(f"{where}: {p.location}" if p.location else where, p.message, p.hint)
                for p in exc.problems
            ]
    if problems:
        raise SpecError(problems)
    return docs


def validate_submission(
    files: Sequence[str],
    presets: Sequence[str],
    params: Mapping[str, Any],
    *,
    uuid: str,
    owner: str,
    project: str,
    hub: ComponentHub | None = None,
) -> list[str]:
    """Raise :class:`SpecError` with every located problem, or return the warnings of a file
    that compiles; ``hub`` gives the ``hubRef`` components (the built-ins unless given)."""
    options = CompileOptions(
        params=dict(params),
        uuid=uuid,
        owner=owner,
        project=project,
        resolvers=Resolvers(hub=hub or builtin_hub(), paths=NoPaths()),
    )
    try:
        docs = _load_all(files, "files")
    except SpecError as exc:
        if len(files) == 1 and not presets:
            raise with_later_phases(exc, files[0], options) from None
        raise
    preset_docs = _load_all(presets, "presets")
    try:
        doc = compose(docs, presets=preset_docs) if len(docs) > 1 or preset_docs else docs[0]
        compiled = compile_operation(doc, options)
    except SpecError:
        raise
    except Exception as exc:  # noqa: BLE001 - the library promises SpecError; never a 500
        raise SpecError(Problem("", f"cannot compile the polyaxonfile: {exc}")) from None
    return [warning.message for warning in ignored_fields(doc, compiled)]


def problems_of(exc: SpecError) -> list[dict[str, str]]:
    """The problems as JSON objects: ``location``, ``message`` and ``hint`` when there is one."""
    out = []
    for p in exc.problems:
        item = {"location": p.location, "message": p.message}
        if p.hint:
            item["hint"] = p.hint
        out.append(item)
    return out
