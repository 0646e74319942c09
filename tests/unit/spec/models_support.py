"""Helpers of the model tests: parse a polyaxonfile, collect its problems, build a component."""

from typing import Any

import pytest

from axonal_spec.errors import SpecError
from axonal_spec.models import (
    Polyaxonfile,
)
from axonal_spec.parsing import load


def parse(text: str) -> Polyaxonfile:
    return load(text)


def problems(document: str | dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as caught:
        load(document)
    return [(p.location, p.message) for p in caught.value.problems]


def component(run: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"kind": "component", "run": run, **fields}
