"""Polyaxonfile models, parser, validator and compiler (pure: reads only the files it is given)."""

from axonal_spec.errors import Problem, SpecError

__all__ = ("Problem", "SpecError")
