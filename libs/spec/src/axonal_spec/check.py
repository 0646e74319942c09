"""``axonal check``: load files, compose them with presets, apply ``-P`` params, compile.

:func:`check` is what the CLI (and the scheduler, on submit) calls. It raises
:class:`SpecError` with every problem found, each located, and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.compose import compose
from axonal_spec.errors import Problem, SpecError
from axonal_spec.models import Polyaxonfile
from axonal_spec.outcome import CompiledOperation
from axonal_spec.parsing import load

__all__ = ["CheckResult", "check"]


@dataclass(frozen=True)
class CheckResult:
    """A valid polyaxonfile: the composed document and, unless it is a preset, its compilation."""

    document: Polyaxonfile
    compiled: CompiledOperation | None
    sources: tuple[Path, ...]

    @property
    def is_preset(self) -> bool:
        return self.compiled is None


def _load_all(paths: Sequence[Path]) -> list[Polyaxonfile]:
    docs: list[Polyaxonfile] = []
    errors: list[SpecError] = []
    for path in paths:
        try:
            docs.append(load(path))
        except SpecError as exc:
            errors.append(
                SpecError(
                    [Problem(p.location, p.message, p.hint) for p in exc.problems],
                    source=str(path),
                )
            )
    if errors:
        if len(errors) == 1:
            raise errors[0]
        problems = [
            Problem(f"{e.source}: {p.location}" if p.location else str(e.source), p.message, p.hint)
            for e in errors
            for p in e.problems
        ]
        raise SpecError(problems)
    return docs


def check(
    files: Sequence[Path | str],
    *,
    params: Mapping[str, Any] | None = None,
    presets: Sequence[Path | str] = (),
    options: CompileOptions | None = None,
) -> CheckResult:
    """Validate ``files`` (merged in order, then ``presets``) and compile the result.

    A single preset fragment is valid as a preset and is not compiled.
    """
    if not files:
        raise SpecError.at("", "no polyaxonfile given", hint="pass one with -f FILE")
    paths = tuple(Path(f) for f in files)
    docs = _load_all(paths)
    preset_docs = _load_all([Path(p) for p in presets])
    if len(docs) == 1 and not preset_docs and docs[0].is_fragment and not params:
        return CheckResult(docs[0], None, paths)
    source = str(paths[0])
    try:
        doc = compose(docs, presets=preset_docs) if len(docs) > 1 or preset_docs else docs[0]
        options = replace(options or CompileOptions(), params=dict(params or {}))
        compiled = compile_operation(doc, options, origin=paths[0].resolve())
    except SpecError as exc:
        raise SpecError(exc.problems, source=source) from None
    return CheckResult(doc, compiled, paths)
