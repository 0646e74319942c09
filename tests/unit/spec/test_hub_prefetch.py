"""Compiling against a hub behind the network: each reference fetched once, the compile pure."""

import pytest

from axonal_spec import CompileOptions, Resolvers, SpecError, compile_operation, load
from axonal_spec.hub import compile_prefetched

INNER = {
    "kind": "component",
    "run": {"kind": "job", "container": {"image": "python", "command": ["echo", "inner"]}},
}
OUTER = {
    "kind": "component",
    "run": {"kind": "dag", "operations": [{"name": "x", "hubRef": "acme/inner:v1"}]},
}
PIPELINE = """
kind: operation
component:
  run:
    kind: dag
    operations:
      - {name: a, hubRef: "acme/outer:v1"}
      - {name: b, hubRef: "acme/inner:v1"}
      - {name: c, hubRef: "acme/inner:v1"}
"""


async def compile_with(documents):
    fetched: list[str] = []

    async def fetch(ref):
        fetched.append(ref)
        found = documents.get(ref)
        return found if found is not None else SpecError.at("hubRef", f"unknown `{ref}`")

    async def attempt(hub):
        options = CompileOptions(resolvers=Resolvers(hub=hub))
        return compile_operation(load(PIPELINE), options)

    return await compile_prefetched(attempt, fetch), fetched


async def test_nested_references_are_fetched_once_each():
    compiled, fetched = await compile_with({"acme/outer:v1": OUTER, "acme/inner:v1": INNER})
    assert sorted(fetched) == ["acme/inner:v1", "acme/outer:v1"]
    assert [op.name for op in compiled.operations] == ["a", "b", "c"]


async def test_a_refused_reference_is_the_compile_error():
    with pytest.raises(SpecError) as caught:
        await compile_with({"acme/outer:v1": OUTER})
    assert "unknown `acme/inner:v1`" in str(caught.value)
    assert "hubRef" in str(caught.value)
