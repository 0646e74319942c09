"""Polyaxonfile models, parser, validator and compiler (pure: reads only the files it is given).

``load`` parses one file, ``compose`` merges files and presets, ``check`` does everything
``axonal check`` does, ``compile_operation`` turns a document into a fully resolved
:class:`CompiledOperation`. Every failure is a :class:`SpecError` with located problems.

The names below are imported on first use: a caller of one light module (``axonal_spec.types``
for the CLI's ``-P`` values, ``axonal_spec.errors``) does not pay for the models and compiler.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from axonal_spec.checking import CheckResult, check
    from axonal_spec.compiler import CompileOptions, compile_operation
    from axonal_spec.composition import compose
    from axonal_spec.errors import Problem, SpecError
    from axonal_spec.models import Polyaxonfile
    from axonal_spec.outcome import CompiledOperation
    from axonal_spec.parsing import load
    from axonal_spec.resolve import Resolvers

_HOMES = {
    "CheckResult": "checking",
    "CompileOptions": "compiler",
    "CompiledOperation": "outcome",
    "Polyaxonfile": "models",
    "Problem": "errors",
    "Resolvers": "resolve",
    "SpecError": "errors",
    "check": "checking",
    "compile_operation": "compiler",
    "compose": "composition",
    "load": "parsing",
}

__all__ = (
    "CheckResult",
    "CompileOptions",
    "CompiledOperation",
    "Polyaxonfile",
    "Problem",
    "Resolvers",
    "SpecError",
    "check",
    "compile_operation",
    "compose",
    "load",
)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'axonal_spec' has no attribute {name!r}")
    value = getattr(import_module(f"axonal_spec.{home}"), name)
    globals()[name] = value  # once: later lookups do not come here
    return value
