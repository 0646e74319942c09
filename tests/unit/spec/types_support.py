"""Helpers of the IO type tests."""

import pytest

from axonal_spec.errors import SpecError


def problems(exc: pytest.ExceptionInfo[SpecError]) -> list[tuple[str, str]]:
    return [(p.location, p.message) for p in exc.value.problems]
