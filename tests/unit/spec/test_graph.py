"""The DAG: edges from dependencies, param refs and event refs; orphans; cycles; layers."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from axonal_spec.errors import SpecError
from axonal_spec.graph import (
    OpEdges,
    downstream,
    topological_layers,
    topological_order,
    upstream,
)


def deps(**edges: list[str]) -> dict[str, OpEdges]:
    return {name: OpEdges(dependencies=ups) for name, ups in edges.items()}


def test_edges_from_each_source():
    ops = {
        "build": OpEdges(),
        "data": OpEdges(),
        "train": OpEdges(dependencies=["build"], param_refs=["ops.data", "dag", "runs.abc123"]),
        "board": OpEdges(event_refs=["ops.train"]),
        "report": OpEdges(
            dependencies=["train"], param_refs=["ops.train", "ops.data"], event_refs=["ops.train"]
        ),
    }
    assert upstream(ops) == {
        "build": [],
        "data": [],
        "train": ["build", "data"],
        "board": ["train"],
        "report": ["train", "data"],
    }
    assert downstream(ops) == {
        "build": ["train"],
        "data": ["train", "report"],
        "train": ["board", "report"],
        "board": [],
        "report": [],
    }
    assert topological_layers(ops) == [["build", "data"], ["train"], ["board", "report"]]
    assert topological_order(ops) == ["build", "data", "train", "board", "report"]


def test_dag_and_runs_refs_create_no_edge():
    ops = {"a": OpEdges(param_refs=["dag", "runs.0123abcd"], event_refs=["runs.0123abcd"])}
    assert upstream(ops) == {"a": []}
    assert topological_layers(ops) == [["a"]]


@pytest.mark.parametrize(
    ("edges", "location"),
    [
        (OpEdges(dependencies=["ghost"]), "run.operations[1].dependencies"),
        (OpEdges(param_refs=["ops.ghost"]), "run.operations[1].params"),
        (OpEdges(event_refs=["ops.ghost"]), "run.operations[1].events"),
    ],
)
def test_unknown_upstream_is_an_orphan_error(edges, location):
    ops = {"a": OpEdges(), "b": edges}
    for check in (upstream, topological_layers):
        with pytest.raises(SpecError) as exc:
            check(ops)
        [problem] = exc.value.problems
        assert problem.location == location
        assert problem.message == "operation 'b' depends on unknown operation 'ghost'"


def test_every_orphan_is_reported_and_the_location_prefix_is_configurable():
    ops = {"a": OpEdges(dependencies=["x"]), "b": OpEdges(param_refs=["ops.y"])}
    with pytest.raises(SpecError) as exc:
        upstream(ops, location="component.run.operations")
    assert [p.location for p in exc.value.problems] == [
        "component.run.operations[0].dependencies",
        "component.run.operations[1].params",
    ]


def test_two_cycle_like_the_conformance_file():
    ops = deps(A=["B"], B=["A"])
    with pytest.raises(SpecError) as exc:
        topological_layers(ops)
    [problem] = exc.value.problems
    assert problem.message == "Pipeline's graph is not acyclic: A -> B -> A"
    assert problem.location == "run.operations[0]"


def test_self_dependency_is_a_cycle():
    with pytest.raises(SpecError, match=r"not acyclic: a -> a"):
        topological_layers(deps(a=["a"]))


def test_longer_cycle_names_every_op_in_execution_order():
    # c runs before a, a before b, b before c; "start" and "tail" are not on the cycle
    ops = deps(start=[], a=["c", "start"], b=["a"], c=["b"], tail=["c"])
    with pytest.raises(SpecError) as exc:
        topological_layers(ops)
    [problem] = exc.value.problems
    assert problem.message == "Pipeline's graph is not acyclic: a -> b -> c -> a"
    assert problem.location == "run.operations[1]"


def test_each_separate_cycle_is_reported():
    ops = deps(a=["b"], b=["a"], c=[], d=["e"], e=["f"], f=["d"], g=["a", "d"])
    with pytest.raises(SpecError) as exc:
        topological_order(ops)
    messages = sorted(p.message for p in exc.value.problems)
    assert messages == [
        "Pipeline's graph is not acyclic: a -> b -> a",
        "Pipeline's graph is not acyclic: d -> f -> e -> d",
    ]


def test_cycle_group_larger_than_the_reported_path_lists_the_rest():
    # a <-> b and a <-> c: one strongly connected group, the shortest cycle misses one op
    ops = deps(a=["b", "c"], b=["a"], c=["a"])
    with pytest.raises(SpecError) as exc:
        topological_layers(ops)
    [problem] = exc.value.problems
    assert problem.message == "Pipeline's graph is not acyclic: a -> b -> a (also in this cycle: c)"


def test_layers_keep_definition_order():
    ops = deps(z=[], y=["z"], x=[], w=["x", "z"], v=["y"], u=[])
    assert topological_layers(ops) == [["z", "x", "u"], ["y", "w"], ["v"]]


def test_empty_pipeline():
    assert topological_layers({}) == []
    assert upstream({}) == {}


def test_a_two_thousand_op_chain_is_layered():  # speed: bench/spec.py
    names = [f"op{i}" for i in range(2000)]
    ops = {n: OpEdges(dependencies=[names[i - 1]] if i else []) for i, n in enumerate(names)}
    layers = topological_layers(ops)
    assert layers == [[n] for n in names]


def test_a_long_cycle_is_found_without_recursion():
    names = [f"op{i}" for i in range(3000)]
    ops = {n: OpEdges(dependencies=[names[i - 1]]) for i, n in enumerate(names)}  # op0 <- op2999
    with pytest.raises(SpecError) as exc:
        topological_layers(ops)
    message = exc.value.problems[0].message
    assert message.startswith("Pipeline's graph is not acyclic: op0 -> op1 -> op2")
    assert message.endswith("op2999 -> op0")


def test_wide_fan_out_and_fan_in_are_layered():
    leaves = [f"leaf{i}" for i in range(5000)]
    ops = {"root": OpEdges()}
    ops.update({n: OpEdges(param_refs=["ops.root"]) for n in leaves})
    ops["sink"] = OpEdges(dependencies=leaves)
    layers = topological_layers(ops)
    assert layers == [["root"], leaves, ["sink"]]
    assert len(downstream(ops)["root"]) == 5000


@st.composite
def dags(draw: st.DrawFn) -> dict[str, OpEdges]:
    """Random DAGs: op i may only depend on ops < i; edges come from all three sources."""
    size = draw(st.integers(min_value=1, max_value=40))
    names = [f"n{i}" for i in range(size)]
    order = draw(st.permutations(names))  # definition order differs from the hidden order
    ops: dict[str, OpEdges] = {}
    picks = {
        name: draw(st.lists(st.sampled_from(names[:i]), max_size=4)) if i else []
        for i, name in enumerate(names)
    }
    for name in order:
        ups = picks[name]
        kinds = draw(
            st.lists(
                st.sampled_from(["dep", "param", "event"]), min_size=len(ups), max_size=len(ups)
            )
        )
        ops[name] = OpEdges(
            dependencies=[u for u, k in zip(ups, kinds, strict=True) if k == "dep"],
            param_refs=[f"ops.{u}" for u, k in zip(ups, kinds, strict=True) if k == "param"]
            + ["dag"],
            event_refs=[f"ops.{u}" for u, k in zip(ups, kinds, strict=True) if k == "event"],
        )
    return ops


@settings(max_examples=150, deadline=None)
@given(dags())
def test_random_dags_give_a_valid_topological_order(ops):
    layers = topological_layers(ops)
    order = [n for layer in layers for n in layer]
    assert sorted(order) == sorted(ops)
    position = {n: i for i, n in enumerate(order)}
    layer_of = {n: i for i, layer in enumerate(layers) for n in layer}
    definition = list(ops)
    for name, ups in upstream(ops).items():
        for up in ups:
            assert position[up] < position[name]
            assert layer_of[up] < layer_of[name]
        if ups:  # as early as possible: right after its latest upstream
            assert layer_of[name] == 1 + max(layer_of[u] for u in ups)
    for layer in layers:
        assert layer == sorted(layer, key=definition.index)


@settings(max_examples=150, deadline=None)
@given(dags(), st.data())
def test_adding_a_back_edge_always_yields_a_cycle_error(ops, data):
    ups = upstream(ops)
    later = data.draw(st.sampled_from(sorted(ops)))
    ancestors, frontier = {later}, [later]  # later itself: a self loop
    while frontier:
        frontier = [u for n in frontier for u in ups[n] if u not in ancestors]
        ancestors.update(frontier)
    earlier = data.draw(st.sampled_from(sorted(ancestors)))
    edges = ops[earlier]
    back_edge = OpEdges(edges.dependencies, [*edges.param_refs, f"ops.{later}"], edges.event_refs)
    with pytest.raises(SpecError) as exc:
        topological_layers({**ops, earlier: back_edge})
    named = {
        name
        for p in exc.value.problems
        if p.message.startswith("Pipeline's graph is not acyclic: ")
        for name in re.findall(r"n\d+", p.message)
    }
    assert {earlier, later} <= named
