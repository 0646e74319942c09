"""Mutated fixture files: the outcome is a compiled operation or a located SpecError, never a crash.

Mutations: drop a key, change a value's type, insert an unknown key, break a reference
(``dagRef``, ``hubRef``, ``pathRef``, ``urlRef``, ``ref``, ``dependencies``), applied one to
three at a time anywhere in the document.
"""

from dataclasses import replace
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from axonal_spec.compiler import CompileOptions
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.resolve import Resolvers
from axonal_testing.conformance import project_fixtures

from .conftest import assert_located, mutated_outcome

CORPUS = project_fixtures() / "polyaxonfiles"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in {".yaml", ".yml"})
DOCS = {p: yaml.safe_load(p.read_text()) for p in FILES}
OPTIONS = CompileOptions(
    resolvers=Resolvers(urls=MappedUrlResolver({"https://hub.axonal.invalid/fixtures/": CORPUS}))
)
#: Required inputs of the fixtures that need params.
NEEDS = {"typed.yaml": {"epochs": 2}, "tracking.yaml": {"label": "x"}, "jobs/": {"greeting": "hi"}}


def _options(source: Path) -> CompileOptions:
    for marker, params in NEEDS.items():
        if marker in str(source):
            return replace(OPTIONS, params=params)
    return OPTIONS


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_files_compile_or_fail_with_a_located_spec_error(data):
    assert_located(mutated_outcome(DOCS, _options, data))
