"""compile_operation(): matrices, joins, the content hash, urlRef and hubRef."""

from pathlib import Path
from textwrap import dedent

import pytest

from axonal_spec.errors import SpecError
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.outcome import Deferred, ResolvedIO
from axonal_spec.resolve import Resolvers

from .compiler_support import BASE_COMPONENT, compile_text, dag, problems, write

# ---------------------------------------------------------------------------------------------
# Matrix

MATRIX_COMPONENT = """
component:
  inputs:
  - {name: lr, type: float}
  - {name: bs, type: int}
  - {name: opt, type: str, value: adam}
  run: {kind: job, container: {image: i, args: ["{{ lr }}", "--bs={{ bs }}", "{{ opt }}"]}}
"""


def matrix_op(matrix: str) -> str:
    return "kind: operation\n" + dedent(matrix) + MATRIX_COMPONENT


def test_grid_points_are_converted_to_the_input_types():
    compiled = compile_text(
        matrix_op("""
        matrix:
          kind: grid
          concurrency: 2
          params:
            lr: {kind: choice, value: [1, 0.5]}
            bs: {kind: range, value: [16, 48, 16]}
        """)
    )
    plan = compiled.matrix
    assert plan is not None
    assert (plan.kind, plan.size, plan.concurrency, plan.search_space) == ("grid", 4, 2, None)
    assert plan.points == [
        {"lr": 1.0, "bs": 16},
        {"lr": 1.0, "bs": 32},
        {"lr": 0.5, "bs": 16},
        {"lr": 0.5, "bs": 32},
    ]
    assert isinstance((plan.points or [])[0]["lr"], float)
    assert [(i.name, i.source) for i in compiled.inputs] == [
        ("lr", "matrix"),
        ("bs", "matrix"),
        ("opt", "default"),
    ]
    assert compiled.deferred == [
        Deferred(name="lr", source="matrix"),
        Deferred(name="bs", source="matrix"),
    ]
    assert compiled.run["container"]["args"] == ["{{ lr }}", "--bs={{ bs }}", "adam"]


def test_mapping_points_are_converted():
    compiled = compile_text(
        matrix_op("""
        matrix:
          kind: mapping
          values: [{lr: "0.1", bs: "8"}, {lr: 2, bs: 4}]
        """)
    )
    assert compiled.matrix is not None
    assert compiled.matrix.size == 2
    assert compiled.matrix.points == [{"lr": 0.1, "bs": 8}, {"lr": 2.0, "bs": 4}]


RANDOM = """
matrix:
  kind: random
  numRuns: 3
  params:
    lr: {kind: uniform, value: [0, 1]}
    bs: {kind: choice, value: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]}
"""


def test_random_without_seed_is_seeded_by_the_run_uuid():
    first = compile_text(matrix_op(RANDOM), uuid="a" * 32).matrix
    again = compile_text(matrix_op(RANDOM), uuid="a" * 32).matrix
    other = compile_text(matrix_op(RANDOM), uuid="b" * 32).matrix
    assert first is not None
    assert again is not None
    assert other is not None
    assert first.size == 3
    assert len(first.points or []) == 3
    assert all(0 <= p["lr"] <= 1 and p["bs"] in range(1, 11) for p in first.points or [])
    assert first.points == again.points
    assert first.points != other.points


def test_random_with_a_seed_ignores_the_uuid():
    seeded = RANDOM.replace("numRuns: 3", "numRuns: 3\n  seed: 7")
    first = compile_text(matrix_op(seeded), uuid="a" * 32).matrix
    other = compile_text(matrix_op(seeded), uuid="b" * 32).matrix
    assert first is not None
    assert other is not None
    assert first.points == other.points


def test_a_matrix_param_must_be_a_declared_input():
    located = problems(
        matrix_op("""
        matrix:
          kind: grid
          params:
            nope: {kind: choice, value: [1]}
            lr: {kind: choice, value: [1]}
            bs: {kind: choice, value: [1]}
        """)
    )
    assert located == [("matrix.params.nope", "no input named 'nope' (inputs: lr, bs, opt)")]


def test_a_hyperband_resource_must_be_a_declared_input():
    located = problems(
        matrix_op("""
        matrix:
          kind: hyperband
          maxIterations: 9
          eta: 3
          resource: {name: epochs, type: int}
          metric: {name: loss, optimization: minimize}
          params:
            lr: {kind: uniform, value: "0:1"}
            bs: {kind: choice, value: [1, 2]}
        """)
    )
    assert located == [
        (
            "matrix.resource.name",
            "no input named 'epochs' to give each trial its resource (inputs: lr, bs, opt)",
        )
    ]


def test_a_matrix_value_of_the_wrong_type_is_located_at_its_point():
    located = problems(
        matrix_op("""
        matrix:
          kind: grid
          params:
            lr: {kind: choice, value: [abc, 1]}
            bs: {kind: choice, value: [1]}
        """)
    )
    assert located == [("matrix.points[0].lr", "expected float, got 'abc'")]


def test_an_adaptive_matrix_gives_its_search_space_and_no_points():
    compiled = compile_text(
        matrix_op("""
        matrix:
          kind: bayes
          numInitialRuns: 2
          maxIterations: 3
          concurrency: 2
          metric: {name: loss, optimization: minimize}
          params:
            lr: {kind: uniform, value: [0, 1]}
            bs: {kind: choice, value: [8, 16]}
        """)
    )
    plan = compiled.matrix
    assert plan is not None
    assert (plan.kind, plan.size, plan.points, plan.concurrency) == ("bayes", None, None, 2)
    assert plan.search_space is not None
    assert plan.search_space["params"] == {
        "lr": {"kind": "uniform", "low": 0, "high": 1},
        "bs": {"kind": "choice", "values": [8, 16]},
    }
    assert plan.search_space["numInitialRuns"] == 2


#: A matrix of each kind setting ``lr`` and ``bs`` (the two required inputs), one way or another.
BINDING_MATRICES = {
    "grid": "{kind: grid, params: {lr: {kind: choice, value: [1]},"
    " bs: {kind: choice, value: [8]}}}",
    "random": "{kind: random, numRuns: 1, params: {lr: {kind: uniform, value: [0, 1]},"
    " bs: {kind: choice, value: [8]}}}",
    "mapping": "{kind: mapping, values: [{lr: 0.1, bs: 8}]}",
    "bayes": "{kind: bayes, numInitialRuns: 1, maxIterations: 1, metric: {name: loss},"
    " params: {lr: {kind: uniform, value: [0, 1]}, bs: {kind: choice, value: [8]}}}",
    "iterative": "{kind: iterative, maxIterations: 2,"
    " params: {lr: {kind: choice, value: [1]}, bs: {kind: range, value: [8, 16, 8]}}}",
    "tpe": "{kind: tpe, numRuns: 2, metric: {name: loss},"
    " params: {lr: {kind: uniform, value: [0, 1]}, bs: {kind: choice, value: [8]}}}",
    "hyperband": "{kind: hyperband, maxIterations: 9, eta: 3, metric: {name: loss},"
    " resource: {name: bs, type: int}, params: {lr: {kind: uniform, value: [0, 1]}}}",
}


@pytest.mark.parametrize("kind", sorted(BINDING_MATRICES))
def test_required_inputs_set_by_the_matrix_need_no_params(kind: str):
    compiled = compile_text(matrix_op(f"matrix: {BINDING_MATRICES[kind]}"))
    assert {i.name: i.source for i in compiled.inputs} == {
        "lr": "matrix",
        "bs": "matrix",
        "opt": "default",
    }
    assert {d.name for d in compiled.deferred} == {"lr", "bs"}


def test_a_required_input_the_matrix_does_not_set_is_still_missing():
    found = problems(
        matrix_op("""
        matrix:
          kind: hyperband
          maxIterations: 9
          metric: {name: loss}
          resource: {name: epochs, type: int}
          params: {lr: {kind: uniform, value: [0, 1]}}
        """)
    )
    assert found[0] == ("inputs", "required inputs without a value: bs")


# ---------------------------------------------------------------------------------------------
# Joins


def test_join_params_satisfy_required_inputs_and_are_deferred():
    compiled = compile_text("""
        kind: operation
        joins:
        - query: "metrics.loss:<0.3, status:succeeded"
          sort: "-metrics.loss"
          limit: 5
          params:
            uuids: {value: globals.uuid}
            losses: {value: outputs.loss, contextOnly: true}
        component:
          inputs: [{name: uuids, type: "List[str]"}]
          run: {kind: job, container: {image: i, args: ["{{ uuids }}", "{{ losses }}"]}}
    """)
    assert compiled.inputs == [
        ResolvedIO(name="uuids", type="List[str]", value=None, is_optional=False, source="join")
    ]
    assert compiled.deferred == [Deferred(name="uuids", source="join")]
    assert compiled.run["container"]["args"] == ["{{ uuids }}", "{{ losses }}"]
    assert compiled.joins[0]["limit"] == 5


# ---------------------------------------------------------------------------------------------
# Content hash

HASHED = """
kind: operation
params: {lr: 0.1, tag: {value: a, contextOnly: true}}
component:
  inputs: [{name: lr, type: float}]
  run:
    kind: job
    container: {image: "img:1", args: ["{{ lr }}", "{{ tag }}", "{{ globals.uuid }}"]}
"""


def test_the_content_hash_is_stable_and_independent_of_the_run_identity():
    first = compile_text(HASHED)
    assert len(first.content_hash) == 64
    assert compile_text(HASHED).content_hash == first.content_hash
    other_run = compile_text(HASHED, uuid="f" * 32, project="p", owner="o")
    assert other_run.run != first.run
    assert other_run.content_hash == first.content_hash


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("lr: 0.1", "lr: 0.2"),
        ("img:1", "img:2"),
        ("value: a, contextOnly", "value: b, contextOnly"),
    ],
)
def test_the_content_hash_changes_with_what_runs(old: str, new: str):
    assert compile_text(HASHED.replace(old, new)).content_hash != (
        compile_text(HASHED).content_hash
    )


def test_the_content_hash_changes_with_a_cli_param():
    assert (
        compile_text(HASHED, params={"lr": 0.3}).content_hash != compile_text(HASHED).content_hash
    )


def test_the_dag_hash_changes_when_an_operation_changes():
    text = dag("- {name: a, dagRef: consumer, params: {src: x}}")
    changed = compile_text(text.replace("src: x", "src: y"))
    assert compile_text(text).content_hash != changed.content_hash


# ---------------------------------------------------------------------------------------------
# urlRef and hubRef


def test_a_url_ref_without_a_resolver_is_an_error_with_a_hint():
    with pytest.raises(SpecError) as info:
        compile_text("kind: operation\nurlRef: https://example.com/c.yaml\n")
    (problem,) = info.value.problems
    assert problem.location == "urlRef"
    assert problem.message == (
        "cannot fetch https://example.com/c.yaml: no URL resolver configured"
    )
    assert problem.hint == "download the file and use pathRef, or map the URL to a local file"


def test_a_url_ref_resolves_through_a_mapped_resolver(tmp_path: Path):
    write(tmp_path, "component.yaml", BASE_COMPONENT)
    resolvers = Resolvers(urls=MappedUrlResolver({"https://example.com/comps/": tmp_path}))
    text = "kind: operation\nurlRef: https://example.com/comps/component.yaml\nparams: {lr: 0.4}\n"
    compiled = compile_text(text, resolvers=resolvers)
    assert compiled.name == "base"
    assert compiled.run["container"]["args"] == ["--lr=0.4"]
    located = problems(text.replace("comps/", "other/"), resolvers=resolvers)
    assert located == [
        (
            "urlRef",
            "no local copy of `https://example.com/other/component.yaml` "
            "(this resolver does not use the network)",
        )
    ]


def test_an_unknown_hub_ref_suggests_close_names():
    with pytest.raises(SpecError) as info:
        compile_text("kind: operation\nhubRef: tensorbord\n")
    (problem,) = info.value.problems
    assert (problem.location, problem.message) == (
        "hubRef",
        "unknown hub component `tensorbord`",
    )
    assert problem.hint == "did you mean `tensorboard`?"


def test_builtin_hub_components_resolve():
    board = compile_text("kind: operation\nhubRef: tensorboard\nparams: {uuid: abc}\n")
    assert (board.name, board.run_kind, board.run["ports"]) == ("tensorboard", "service", [6006])
    assert board.run["container"]["args"][:2] == [
        "--logdir=/plx-context/artifacts/abc/outputs/tensorboard",
        "--port={{ globals.ports[0] }}",  # filled in by the executor
    ]
    kaniko = compile_text("kind: operation\nhubRef: kaniko\nparams: {destination: org/p:1}\n")
    assert (kaniko.name, kaniko.run_kind) == ("kaniko", "job")
    assert "--destination=org/p:1" in kaniko.run["container"]["args"]
    assert problems("kind: operation\nhubRef: tensorboard\n") == [
        ("inputs", "required inputs without a value: uuid")
    ]
