"""Mutated corpus files: the outcome is a compiled operation or a located SpecError, never a crash.

Mutations: drop a key, change a value's type, insert an unknown key, break a reference
(``dagRef``, ``hubRef``, ``pathRef``, ``urlRef``, ``ref``, ``dependencies``), applied one to
three at a time anywhere in the document.
"""

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from axonal_spec import SpecError
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.parsing import load
from axonal_spec.resolve import Resolvers

CORPUS = Path(__file__).parents[2].parent / "shared" / "conformance" / "polyaxonfiles"
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


REFERENCES = {"dagRef", "hubRef", "pathRef", "urlRef", "ref", "dependencies"}
ODD_VALUES = [None, 0, -1, 3.5, "", "text", "{{ nope }}", True, [], {}, [1, "a"], {"x": 1}]


def _paths(node: Any, path: tuple = ()) -> list[tuple]:
    """Every location in the document (dict keys and list indexes)."""
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*path, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*path, index))
    return out


def _parent(doc: Any, path: tuple) -> Any:
    for part in path[:-1]:
        doc = doc[part]
    return doc


def _mutate(doc: Any, data: st.DataObject) -> Any:
    path = data.draw(st.sampled_from(_paths(doc)))
    kind = data.draw(st.sampled_from(["drop", "retype", "unknown", "break"]))
    target = _parent(doc, path)[path[-1]] if path else doc
    if kind == "unknown" and isinstance(target, dict):
        target[data.draw(st.sampled_from(["fooBar", "imagee", "paramz", "x"]))] = 1
    elif kind == "drop" and path:
        parent = _parent(doc, path)
        if isinstance(parent, dict):
            del parent[path[-1]]
        elif parent:
            parent.pop(path[-1])
    elif kind == "break" and path and path[-1] in REFERENCES:
        broken = st.sampled_from(["missing-op", "ops.nowhere", ["ghost"], "./no-such-file.yaml"])
        _parent(doc, path)[path[-1]] = copy.deepcopy(data.draw(broken))
    elif path:  # a copy: later mutations must not change the shared samples
        _parent(doc, path)[path[-1]] = copy.deepcopy(data.draw(st.sampled_from(ODD_VALUES)))
    return doc


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=st.data())
def test_mutated_files_compile_or_fail_with_a_located_spec_error(data):
    source = data.draw(st.sampled_from(FILES), label="file")
    doc = copy.deepcopy(DOCS[source])
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        doc = _mutate(doc, data)
    error = _outcome(doc, source)
    if error is not None:
        assert error.problems
        assert all(p.message for p in error.problems)
        assert any(p.location for p in error.problems), f"no location in: {error}"


def _outcome(doc: Any, source: Path) -> SpecError | None:
    """``None`` when the document compiles, else its SpecError (anything else propagates)."""
    try:
        parsed = load(doc)
        if not parsed.is_fragment:
            compile_operation(parsed, _options(source), origin=source)
    except SpecError as exc:
        return exc
    return None
