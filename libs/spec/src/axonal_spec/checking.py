"""``axonal check``: load files, compose them with presets, apply ``-P`` params, compile.

:func:`check` is what the CLI (and the scheduler, on submit) calls. It raises
:class:`SpecError` with every problem found, each located, and nothing else: the schema
problems of every section together and, when they lie where nothing else depends on them
(:mod:`axonal_spec.salvage`), the problems compiling the rest of the file finds as well. A
valid file's result lists the fields the local agent would ignore
(:mod:`axonal_spec.support_check`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.composition import compose
from axonal_spec.errors import Problem, SpecError
from axonal_spec.models import Polyaxonfile
from axonal_spec.outcome import CompiledOperation
from axonal_spec.parsing import load, parse_text
from axonal_spec.salvage import salvage
from axonal_spec.support_check import SpecWarning, ignored_fields

__all__ = ["CheckResult", "check", "with_later_phases"]


@dataclass(frozen=True)
class CheckResult:
    """A valid polyaxonfile: the composed document and, unless it is a preset, its compilation,
    with the fields the local agent ignores."""

    document: Polyaxonfile
    compiled: CompiledOperation | None
    sources: tuple[Path, ...]
    warnings: tuple[SpecWarning, ...] = ()

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
    options = replace(options or CompileOptions(), params=dict(params or {}))
    try:
        docs = _load_all(paths)
    except SpecError as exc:
        if len(paths) > 1 or presets:
            raise
        raise _file_with_later_phases(exc, paths[0], options) from None
    preset_docs = _load_all([Path(p) for p in presets])
    if len(docs) == 1 and not preset_docs and docs[0].is_fragment and not params:
        return CheckResult(docs[0], None, paths, tuple(ignored_fields(docs[0])))
    source = str(paths[0])
    try:
        doc = compose(docs, presets=preset_docs) if len(docs) > 1 or preset_docs else docs[0]
        compiled = compile_operation(doc, options, origin=paths[0].resolve())
    except SpecError as exc:
        raise SpecError(exc.problems, source=source) from None
    return CheckResult(doc, compiled, paths, tuple(ignored_fields(doc, compiled)))


def _file_with_later_phases(exc: SpecError, path: Path, options: CompileOptions) -> SpecError:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return exc  # already reported by load
    return with_later_phases(exc, text, options, origin=path.resolve())


def with_later_phases(
    exc: SpecError,
    source: str | Mapping[str, Any],
    options: CompileOptions,
    *,
    origin: Path | None = None,
) -> SpecError:
    """``exc``, the schema problems of one document (``source``: its text or data), plus the
    problems compiling the rest finds when the schema problems leave it independent."""
    try:
        document = parse_text(source, location=exc.source) if isinstance(source, str) else source
    except SpecError:
        return exc
    salvaged = salvage(document) if isinstance(document, Mapping) else None
    if salvaged is None or salvaged.is_fragment:
        return exc
    try:
        compile_operation(salvaged, options, origin=origin)
    except SpecError as later:
        problems = list(exc.problems)
        problems += [p for p in later.problems if p not in problems]
        return SpecError(problems, source=exc.source)
    return exc
