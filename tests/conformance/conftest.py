"""Helpers of the mutation tests: mutate a polyaxonfile anywhere, and compile the result."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from axonal_spec import SpecError
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.parsing import load

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


def mutate(doc: Any, data: st.DataObject) -> Any:
    """Drop a key, change a value's type, insert an unknown key or break a reference."""
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


def mutated_outcome(
    docs: dict[Path, Any], options: Callable[[Path], CompileOptions], data: st.DataObject
) -> SpecError | None:
    """Mutate one of ``docs`` one to three times: ``None`` if it compiles, else its SpecError.

    Anything but a SpecError propagates (a crash fails the test).
    """
    source = data.draw(st.sampled_from(sorted(docs)), label="file")
    doc = copy.deepcopy(docs[source])
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        doc = mutate(doc, data)
    try:
        parsed = load(doc)
        if not parsed.is_fragment:
            compile_operation(parsed, options(source), origin=source)
    except SpecError as exc:
        return exc
    return None


def assert_located(error: SpecError | None) -> None:
    """A SpecError names every problem and locates at least one."""
    if error is not None:
        assert error.problems
        assert all(p.message for p in error.problems)
        assert any(p.location for p in error.problems), f"no location in: {error}"
