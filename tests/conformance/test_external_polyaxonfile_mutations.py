"""Mutated external corpus files: a compiled operation or a located SpecError, never a crash.

Collected only when the corpus is there. The mutations are those of
``test_polyaxonfile_mutations.py`` (see ``conftest.py``).
"""

from dataclasses import replace
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from axonal_spec.compiler import CompileOptions
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.resolve import Resolvers
from axonal_testing.conformance import required_external_corpus

from .conftest import assert_located, mutated_outcome

CONFORMANCE = required_external_corpus()
CORPUS = CONFORMANCE / "polyaxonfiles"
FILES = sorted(p for p in CORPUS.rglob("*") if p.suffix in {".yaml", ".yml"})
DOCS = {p: yaml.safe_load(p.read_text()) for p in FILES}
QUICK_START = "https://raw.githubusercontent.com/polyaxon/polyaxon-quick-start/master/"
OPTIONS = CompileOptions(
    resolvers=Resolvers(urls=MappedUrlResolver({QUICK_START: CORPUS / "polyaxon-quick-start"}))
)
#: Required inputs of the corpus files that need params.
NEEDS = {"typed.yaml": {"epochs": 2}, "passing-params": {"message": "hi"}}


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
def test_mutated_corpus_files_compile_or_fail_with_a_located_spec_error(data):
    assert_located(mutated_outcome(DOCS, _options, data))
