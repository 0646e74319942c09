"""Polyaxonfile models, parser, validator and compiler (pure: reads only the files it is given).

``load`` parses one file, ``compose`` merges files and presets, ``check`` does everything
``axonal check`` does, ``compile_operation`` turns a document into a fully resolved
:class:`CompiledOperation`. Every failure is a :class:`SpecError` with located problems.
"""

from axonal_spec.check import CheckResult, check
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.compose import compose
from axonal_spec.errors import Problem, SpecError
from axonal_spec.models import Polyaxonfile
from axonal_spec.outcome import CompiledOperation
from axonal_spec.parsing import load
from axonal_spec.resolve import Resolvers

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
