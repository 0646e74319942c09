"""compile_operation() and check(): params, refs, templates, shortcuts, patches, DAGs, matrices,
joins, the content hash, references and composed files, with every problem located."""

from pathlib import Path
from textwrap import dedent
from typing import Any

import pytest

from axonal_spec.check import check
from axonal_spec.compiler import CompileOptions, compile_operation
from axonal_spec.errors import SpecError
from axonal_spec.hub import MappedUrlResolver
from axonal_spec.outcome import CompiledOperation, Deferred, ResolvedIO
from axonal_spec.parsing import load
from axonal_spec.resolve import Resolvers

UUID = "0" * 32
OUTPUTS = f"/plx-context/artifacts/{UUID}/outputs"


def compile_text(text: str, *, origin: Path | None = None, **options: Any) -> CompiledOperation:
    return compile_operation(load(dedent(text)), CompileOptions(**options), origin=origin)


def problems(text: str, **options: Any) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as info:
        compile_text(text, **options)
    return [(p.location, p.message) for p in info.value.problems]


def io(compiled: CompiledOperation, name: str) -> ResolvedIO:
    return next(i for i in (*compiled.inputs, *compiled.outputs) if i.name == name)


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(dedent(text))
    return path


# ---------------------------------------------------------------------------------------------
# Params: -P > operation param > IO default; converted and validated


TRAIN = """
    inputs:
    - {name: lr, type: float, value: 0.1}
    - {name: opt, type: str, options: [adam, sgd], value: adam}
    - {name: epochs, type: int, validation: {ge: 1}, value: 2}
    run:
      kind: job
      container: {image: python, args: ["{{ lr }}", "--opt={{ opt }}"]}
"""


def train_op(params: str = "{}") -> str:
    component = "\n".join("  " + line for line in dedent(TRAIN).splitlines())
    return f"kind: operation\nparams: {params}\ncomponent:\n{component}\n"


def test_the_io_default_is_used_without_params():
    compiled = compile_text(train_op())
    assert io(compiled, "lr") == ResolvedIO(
        name="lr", type="float", value=0.1, is_optional=True, source="default"
    )
    assert compiled.run["container"]["args"] == [0.1, "--opt=adam"]


def test_an_operation_param_beats_the_default():
    compiled = compile_text(train_op("{lr: 0.2, opt: sgd}"))
    assert (io(compiled, "lr").value, io(compiled, "lr").source) == (0.2, "param")
    assert compiled.run["container"]["args"] == [0.2, "--opt=sgd"]


def test_a_cli_param_beats_the_operation_param_and_is_converted():
    compiled = compile_text(train_op("{lr: 0.2}"), params={"lr": "0.5", "epochs": "3"})
    assert (io(compiled, "lr").value, io(compiled, "lr").source) == (0.5, "cli")
    assert (io(compiled, "epochs").value, io(compiled, "epochs").source) == (3, "cli")
    assert compiled.run["container"]["args"] == [0.5, "--opt=adam"]
    assert compiled.input_values() == {"lr": 0.5, "opt": "adam", "epochs": 3}


def test_params_of_a_file_without_a_reference_apply_to_its_own_inputs():
    compiled = compile_text("params: {lr: '0.25'}\n" + dedent(TRAIN))
    assert (io(compiled, "lr").value, io(compiled, "lr").source) == (0.25, "param")
    assert compiled.run["container"]["args"] == [0.25, "--opt=adam"]


def test_param_values_are_validated_against_the_io_rules():
    assert problems(train_op("{opt: rmsprop}"), params={"epochs": 0}) == [
        ("params.opt", "'rmsprop' is not one of ['adam', 'sgd'] (options)"),
        ("params.epochs", "0 must be greater than or equal to 1.0 (ge)"),
    ]


def test_a_value_of_the_wrong_type_is_located_at_its_param_or_default():
    assert problems(train_op("{lr: fast}")) == [("params.lr", "expected float, got 'fast'")]
    text = """
        inputs: [{name: n, type: int, value: abc}]
        run: {kind: job, container: {image: i}}
    """
    assert problems(text) == [("inputs[0]", "expected int, got 'abc'")]


def test_every_missing_required_input_is_reported_in_one_error():
    text = """
        inputs:
        - {name: a, type: int}
        - {name: b, type: str}
        - {name: c, type: str, isOptional: true}
        run: {kind: job, container: {image: i, args: ["{{ a }}"]}}
    """
    with pytest.raises(SpecError) as info:
        compile_text(text)
    (problem,) = info.value.problems
    assert problem.location == "inputs"
    assert problem.message == "required inputs without a value: a, b"
    assert problem.hint == "pass them as params, e.g. -P a=... -P b=..."
    assert compile_text(text, params={"a": "1", "b": "x"}).input_values() == {
        "a": 1,
        "b": "x",
        "c": None,
    }


def test_an_unknown_cli_param_names_the_known_inputs():
    assert problems(train_op(), params={"bogus": 1}) == [
        ("params", "-P bogus: no input or output named 'bogus' (inputs: epochs, lr, opt)")
    ]


def test_context_only_params_are_in_the_context_but_not_inputs():
    compiled = compile_text("""
        kind: operation
        params: {tag: {value: v1, contextOnly: true}}
        component:
          run: {kind: job, container: {image: i, args: ["--tag={{ tag }}", "{{ params.as_args }}"]}}
    """)
    assert compiled.inputs == []
    assert compiled.context_params == {"tag": "v1"}
    assert compiled.run["container"]["args"] == ["--tag=v1", ""]


def test_a_template_param_renders_against_the_runs_globals():
    compiled = compile_text("""
        kind: operation
        params:
          path: "{{ globals.run_outputs_path }}/model"
          project: {value: "{{ globals.project_name }}", contextOnly: true}
        component:
          inputs: [{name: path, type: str}]
          run: {kind: job, container: {image: i, args: ["{{ path }}", "{{ project }}"]}}
    """)
    assert io(compiled, "path").value == f"{OUTPUTS}/model"
    assert compiled.run["container"]["args"] == [f"{OUTPUTS}/model", "default"]


# ---------------------------------------------------------------------------------------------
# Refs: dag inputs now, upstream outputs later


DAG = """
    kind: component
    name: pipe
    inputs:
    - {name: data, type: str, value: "s3://bucket/data"}
    run:
      kind: dag
      components:
      - name: producer
        outputs: [{name: result, type: str}, {name: count, type: int}]
        run: {kind: job, container: {image: producer}}
      - name: consumer
        inputs: [{name: src, type: str}, {name: n, type: int, isOptional: true}]
        run: {kind: job, container: {image: consumer, args: ["--src={{ src }}", "{{ n }}"]}}
      operations:
"""


def dag(operations: str) -> str:
    return dedent(DAG) + "\n".join("  " + line for line in dedent(operations).splitlines())


def test_ref_dag_reads_the_enclosing_dags_inputs():
    compiled = compile_text(
        dag("""
        - name: use
          dagRef: consumer
          params:
            src: {ref: dag, value: inputs.data}
            project: {ref: dag, value: globals.project_name, contextOnly: true}
        """),
        params={"data": "s3://other"},
    )
    (use,) = compiled.operations or []
    assert (io(use, "src").value, io(use, "src").source) == ("s3://other", "dag")
    assert use.context_params == {"project": "default"}
    assert use.run["container"]["args"] == ["--src=s3://other", None]
    assert use.deferred == []
    assert compiled.upstream == {"use": []}


def test_ref_dag_to_an_unknown_input_is_located_at_the_value():
    located = problems(
        dag("""
        - {name: use, dagRef: consumer, params: {src: {ref: dag, value: inputs.nope}}}
        """)
    )
    assert ("run.operations[0].params.src.value", "the dag has no inputs.nope") in located


def test_ref_dag_outside_a_dag_is_an_error():
    text = """
        kind: operation
        params: {x: {ref: dag, value: inputs.y}}
        component: {inputs: [{name: x, type: str}], run: {kind: job, container: {image: i}}}
    """
    assert ("params.x.ref", "ref: dag outside a dag") in problems(text)


def test_ref_ops_output_is_deferred_kept_unrendered_and_creates_an_edge():
    compiled = compile_text(
        dag("""
        - {name: make, dagRef: producer}
        - name: use
          dagRef: consumer
          params:
            src: {ref: ops.make, value: outputs.result}
            n: {ref: ops.make, value: outputs.count}
        """)
    )
    make, use = compiled.operations or []
    assert use.deferred == [
        Deferred(name="src", ref="ops.make", value="outputs.result", source="ref"),
        Deferred(name="n", ref="ops.make", value="outputs.count", source="ref"),
    ]
    assert io(use, "src") == ResolvedIO(
        name="src", type="str", value=None, is_optional=False, source="ref"
    )
    assert use.run["container"]["args"] == ["--src={{ src }}", "{{ n }}"]
    assert make.deferred == []
    assert compiled.upstream == {"make": [], "use": ["make"]}
    assert compiled.layers == [["make"], ["use"]]


def test_ref_ops_to_a_missing_output_is_rejected():
    located = problems(
        dag("""
        - {name: make, dagRef: producer}
        - {name: use, dagRef: consumer, params: {src: {ref: ops.make, value: outputs.nope}}}
        """)
    )
    assert located == [
        (
            "run.operations[1].params.src.value",
            "op 'make' has no output 'nope' (outputs: result, count)",
        )
    ]


def test_ref_ops_output_of_an_incompatible_type_is_rejected():
    located = problems(
        dag("""
        - {name: make, dagRef: producer}
        - name: use
          dagRef: consumer
          params:
            src: {ref: ops.make, value: outputs.result}
            n: {ref: ops.make, value: outputs.result}
        """)
    )
    assert located == [
        (
            "run.operations[1].params.n.value",
            "output 'result' of 'make' is str, input 'n' expects int",
        )
    ]


# ---------------------------------------------------------------------------------------------
# Templates and conditions


def test_templates_render_globals_params_and_native_values():
    compiled = compile_text(
        """
        name: train
        inputs:
        - {name: lr, type: float, value: 0.1}
        - {name: debug, type: bool, isFlag: true, value: true}
        run:
          kind: job
          container:
            image: python
            args:
            - "{{ lr }}"
            - "--lr={{ lr }}"
            - "{{ params.as_args }}"
            - "{{ globals.run_outputs_path }}"
            - "{{ globals.name }}/{{ globals.project_name }}/{{ globals.uuid }}"
        """,
        uuid="ab" * 16,
        project="proj",
    )
    outputs = f"/plx-context/artifacts/{'ab' * 16}/outputs"
    assert compiled.run["container"]["args"] == [
        0.1,
        "--lr=0.1",
        "--lr=0.1 --debug",
        outputs,
        f"train/proj/{'ab' * 16}",
    ]
    assert isinstance(compiled.run["container"]["args"][0], float)


def test_an_ops_template_is_rejected_with_a_hint_to_use_ref():
    with pytest.raises(SpecError) as info:
        compile_text("""
            inputs: [{name: x, type: str, value: a}]
            run: {kind: job, container: {image: i, args: ["{{ x }}", "{{ ops.a.outputs.b }}"]}}
        """)
    (problem,) = info.value.problems
    assert problem.location == "run.container.args[1]"
    assert problem.message == (
        "templates cannot read 'ops.a.outputs.b' (in '{{ ops.a.outputs.b }}')"
    )
    assert problem.hint == "use `ref: ops.a` with `value: outputs.b`"


def test_an_ops_template_in_a_param_is_located_at_the_param():
    located = problems("""
        kind: operation
        params: {x: "{{ ops.a.outputs.b }}"}
        component: {inputs: [{name: x, type: str}], run: {kind: job, container: {image: i}}}
    """)
    assert (
        "params.x",
        "templates cannot read 'ops.a.outputs.b' (in '{{ ops.a.outputs.b }}')",
    ) in located


def test_unknown_names_in_templates_are_located_where_they_are_used():
    located = problems("""
        run:
          kind: job
          container: {image: i, command: ["{{ zz }}"], args: ["{{ nope }}", "ok"]}
    """)
    assert sorted(located) == [
        ("run.container.args[0]", "undefined 'nope' in '{{ nope }}'"),
        ("run.container.command[0]", "undefined 'zz' in '{{ zz }}'"),
    ]


def test_conditions_naming_an_unknown_variable_are_rejected():
    text = """
        inputs: [{name: x, type: int, value: 1}]
        conditions: "{{ x > 0 and missing }}"
        run: {kind: job, container: {image: i}}
    """
    assert problems(text) == [("conditions", "unknown names: missing")]
    ok = compile_text(text.replace(" and missing", ""))
    assert ok.conditions == "{{ x > 0 }}"


def test_conditions_may_read_matrix_params():
    compiled = compile_text("""
        kind: operation
        conditions: "{{ lr > 0.5 }}"
        matrix: {kind: grid, params: {lr: {kind: choice, value: [0.1, 0.9]}}}
        component: {inputs: [{name: lr, type: float}], run: {kind: job, container: {image: i}}}
    """)
    assert compiled.conditions == "{{ lr > 0.5 }}"


# ---------------------------------------------------------------------------------------------
# Root shortcuts


def test_cmd_text_becomes_a_shell_script():
    compiled = compile_text("""
        container: {image: python}
        cmd: |
          echo a
          echo b
    """)
    assert compiled.run_kind == "job"
    assert compiled.run["container"] == {
        "image": "python",
        "command": ["/bin/sh", "-c"],
        "args": ["set -e\necho a\necho b"],
    }


def test_cmd_lines_and_env_dict_are_lowered_into_the_container():
    compiled = compile_text("""
        cmd: [echo a, echo b]
        container: {image: py, env: [{name: A, value: old}, {name: C, value: c}]}
        env: {A: "1", B: two}
    """)
    container = compiled.run["container"]
    assert container["args"] == ["set -e\necho a\necho b"]
    assert container["env"] == [
        {"name": "C", "value": "c"},
        {"name": "A", "value": "1"},
        {"name": "B", "value": "two"},
    ]


def test_resources_shortcut_becomes_requests_and_limits():
    compiled = compile_text("""
        container: {image: py}
        resources: {cpu: "500m..1", gpu: 1, memory: 2Gi}
    """)
    assert compiled.run["container"]["resources"] == {
        "requests": {"cpu": "500m", "nvidia.com/gpu": 1, "memory": "2Gi"},
        "limits": {"cpu": 1, "nvidia.com/gpu": 1, "memory": "2Gi"},
    }


def test_ports_without_a_run_make_a_service():
    compiled = compile_text("""
        container: {image: py, args: ["{{ globals.ports[0] }}", "{{ globals.base_url }}"]}
        ports: [8888]
    """)
    assert compiled.run_kind == "service"
    assert compiled.run["ports"] == [8888]
    assert compiled.run["container"]["args"] == [
        8888,
        f"/services/v1/default/default/runs/{UUID}",
    ]


def test_a_file_with_nothing_to_run_is_an_error():
    assert problems("kind: component\nname: x\n") == [
        ("run", "nothing to run: the component has no run, container or cmd")
    ]


# ---------------------------------------------------------------------------------------------
# runPatch on referenced components

BASE_COMPONENT = """
    kind: component
    name: base
    inputs: [{name: lr, type: float, value: 0.1}]
    run:
      kind: job
      container:
        image: base:1
        args: ["--lr={{ lr }}"]
        env: [{name: A, value: a}, {name: B, value: b}]
"""
PATCH = """
runPatch:
  container:
    image: patched:2
    args: ["--other"]
    env: [{name: A, value: patched}, {name: C, value: c}]
"""


@pytest.mark.parametrize(
    ("strategy", "image", "args", "env"),
    [
        ("post_merge", "patched:2", ["--other"], [("A", "patched"), ("B", "b"), ("C", "c")]),
        ("pre_merge", "base:1", ["--lr=0.1"], [("A", "a"), ("C", "c"), ("B", "b")]),
        ("replace", "patched:2", ["--other"], [("A", "patched"), ("C", "c")]),
        ("isnull", "base:1", ["--lr=0.1"], [("A", "a"), ("B", "b")]),
    ],
)
def test_run_patch_on_a_path_ref_follows_the_patch_strategy(
    tmp_path: Path, strategy: str, image: str, args: list[str], env: list[tuple[str, str]]
):
    write(tmp_path, "component.yaml", BASE_COMPONENT)
    op = write(
        tmp_path,
        "op.yaml",
        f"kind: operation\npathRef: component.yaml\npatchStrategy: {strategy}\n{PATCH}",
    )
    compiled = compile_operation(load(op), origin=op)
    container = compiled.run["container"]
    assert compiled.name == "base"
    assert container["image"] == image
    assert container["args"] == args
    assert [(e["name"], e["value"]) for e in container["env"]] == env


def test_isnull_fills_only_missing_keys(tmp_path: Path):
    write(tmp_path, "component.yaml", BASE_COMPONENT)
    op = write(
        tmp_path,
        "op.yaml",
        """
        kind: operation
        pathRef: component.yaml
        patchStrategy: isnull
        runPatch: {container: {image: ignored, workingDir: /srv/app}}
        """,
    )
    container = compile_operation(load(op), origin=op).run["container"]
    assert (container["image"], container["workingDir"]) == ("base:1", "/srv/app")


def test_run_patch_on_an_inline_component_and_a_kindless_run_patch():
    compiled = compile_text("""
        kind: operation
        params: {lr: 0.3}
        component:
          inputs: [{name: lr, type: float}]
          run: {kind: job, container: {image: inline:1, args: ["--lr={{ lr }}"]}}
        runPatch: {container: {env: [{name: X, value: "1"}]}}
        run: {container: {image: inline:2}}
    """)
    assert compiled.run["container"] == {
        "image": "inline:2",
        "args": ["--lr=0.3"],
        "env": [{"name": "X", "value": "1"}],
    }


def test_a_missing_path_ref_is_located_at_path_ref(tmp_path: Path):
    op = write(tmp_path, "op.yaml", "kind: operation\npathRef: nope.yaml\n")
    with pytest.raises(SpecError) as info:
        compile_operation(load(op), origin=op)
    assert [(p.location, p.message) for p in info.value.problems] == [
        ("pathRef", f"file not found: `nope.yaml` (looked for {tmp_path / 'nope.yaml'})")
    ]


# ---------------------------------------------------------------------------------------------
# DAGs


def test_dag_layers_and_upstream_come_from_dependencies_refs_and_events():
    compiled = compile_text(
        dag("""
        - {name: a, dagRef: producer}
        - {name: b, dagRef: consumer, params: {src: {ref: ops.a, value: outputs.result}}}
        - {name: c, dagRef: consumer, params: {src: x}}
        - name: d
          dagRef: consumer
          dependencies: [c]
          params: {src: y}
          events: [{kinds: [run_status_running], ref: ops.b}]
        """)
    )
    assert compiled.run_kind == "dag"
    assert "operations" not in compiled.run
    assert "components" not in compiled.run
    assert [op.name for op in compiled.operations or []] == ["a", "b", "c", "d"]
    assert compiled.upstream == {"a": [], "b": ["a"], "c": [], "d": ["c", "b"]}
    assert compiled.layers == [["a", "c"], ["b"], ["d"]]
    d = (compiled.operations or [])[3]
    assert d.dependencies == ["c"]
    assert d.events == [{"kinds": ["run_status_running"], "ref": "ops.b"}]


def test_a_cycle_names_every_op_in_it():
    located = problems(
        dag("""
        - {name: a, dagRef: producer, dependencies: [c]}
        - {name: b, dagRef: producer, dependencies: [a]}
        - name: c
          dagRef: producer
          events: [{kinds: [run_status_done], ref: ops.b}]
        - {name: free, dagRef: producer}
        """)
    )
    assert located == [("run.operations[0]", "Pipeline's graph is not acyclic: a -> b -> c -> a")]


def test_an_unknown_upstream_names_both_ops():
    located = problems(
        dag("""
        - {name: a, dagRef: producer, dependencies: [ghost]}
        - {name: b, dagRef: consumer, params: {src: {ref: ops.phantom, value: outputs.x}}}
        """)
    )
    assert located == [
        ("run.operations[0].dependencies", "operation 'a' depends on unknown operation 'ghost'"),
        ("run.operations[1].params", "operation 'b' depends on unknown operation 'phantom'"),
    ]


def test_a_dag_ref_to_a_missing_component_is_rejected():
    with pytest.raises(SpecError) as info:
        load(dag("- {name: a, dagRef: nothere}"))
    assert [(p.location, p.message) for p in info.value.problems] == [
        (
            "run.operations[0].dagRef",
            "dagRef 'nothere' names no component of this DAG (components: consumer, producer)",
        )
    ]
    assert problems("kind: operation\ndagRef: foo\n") == [
        ("dagRef", "no component named 'foo' in this dag")
    ]


def test_errors_of_dag_operations_are_located_under_the_operation():
    located = problems(
        dag("""
        - {name: a, dagRef: producer}
        - {name: b, dagRef: consumer}
        - {name: c, dagRef: consumer, params: {src: x, n: abc}}
        - name: d
          component: {run: {kind: job, container: {image: i, args: ["{{ nope }}"]}}}
        """)
    )
    assert located == [
        ("run.operations[1].inputs", "required inputs without a value: src"),
        ("run.operations[2].params.n", "expected int, got 'abc'"),
        ("run.operations[3].run.container.args[0]", "undefined 'nope' in '{{ nope }}'"),
    ]


def test_inline_dag_operations_use_their_own_params():
    compiled = compile_text("""
        run:
          kind: dag
          operations:
          - name: a
            params: {msg: hi}
            inputs: [{name: msg, type: str}]
            run: {kind: job, container: {image: i, args: ["{{ msg }}"]}}
    """)
    (a,) = compiled.operations or []
    assert a.run["container"]["args"] == ["hi"]


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
        "--port=6006",
    ]
    kaniko = compile_text("kind: operation\nhubRef: kaniko\nparams: {destination: org/p:1}\n")
    assert (kaniko.name, kaniko.run_kind) == ("kaniko", "job")
    assert "--destination=org/p:1" in kaniko.run["container"]["args"]
    assert problems("kind: operation\nhubRef: tensorboard\n") == [
        ("inputs", "required inputs without a value: uuid")
    ]


# ---------------------------------------------------------------------------------------------
# check(): files merged in order, presets, preset fragments


@pytest.fixture
def files(tmp_path: Path) -> Path:
    write(
        tmp_path,
        "base.yaml",
        """
        kind: operation
        name: train
        params: {lr: 0.1}
        component:
          inputs:
          - {name: lr, type: float}
          - {name: epochs, type: int, value: 1}
          run:
            kind: job
            container: {image: "base:1", args: ["--lr={{ lr }}", "--epochs={{ epochs }}"]}
        """,
    )
    write(
        tmp_path,
        "override.yaml",
        """
        params: {lr: 0.7}
        runPatch: {container: {image: "override:2"}}
        """,
    )
    write(
        tmp_path,
        "preset.yaml",
        """
        isPreset: true
        queue: gpu
        runPatch: {container: {env: [{name: P, value: "1"}]}}
        """,
    )
    return tmp_path


def test_check_compiles_one_file(files: Path):
    result = check([files / "base.yaml"])
    assert not result.is_preset
    assert result.sources == (files / "base.yaml",)
    assert result.compiled is not None
    assert result.compiled.run["container"] == {
        "image": "base:1",
        "args": ["--lr=0.1", "--epochs=1"],
    }


def test_check_merges_files_in_order(files: Path):
    result = check([files / "base.yaml", files / "override.yaml"])
    compiled = result.compiled
    assert compiled is not None
    assert compiled.input_values() == {"lr": 0.7, "epochs": 1}
    assert compiled.run["container"] == {
        "image": "override:2",
        "args": ["--lr=0.7", "--epochs=1"],
    }
    later = write(files, "later.yaml", "params: {lr: 0.9}\n")
    last_wins = check([files / "base.yaml", files / "override.yaml", later]).compiled
    assert last_wins is not None
    assert last_wins.input_values()["lr"] == 0.9
    swapped = check([files / "base.yaml", later, files / "override.yaml"]).compiled
    assert swapped is not None
    assert swapped.input_values()["lr"] == 0.7


def test_check_applies_params_and_presets(files: Path):
    result = check([files / "base.yaml"], params={"epochs": "5"}, presets=[files / "preset.yaml"])
    compiled = result.compiled
    assert compiled is not None
    assert compiled.queue == "gpu"
    assert compiled.input_values() == {"lr": 0.1, "epochs": 5}
    assert compiled.run["container"]["env"] == [{"name": "P", "value": "1"}]


def test_a_lone_preset_fragment_is_valid_as_a_preset(files: Path):
    result = check([files / "preset.yaml"])
    assert result.is_preset
    assert result.compiled is None
    assert result.document.queue == "gpu"
    kindless = write(files, "fragment.yaml", "queue: q\nenvironment: {nodeSelector: {a: b}}\n")
    assert check([kindless]).is_preset


def test_check_errors_carry_the_source_file(files: Path):
    with pytest.raises(SpecError) as info:
        check([files / "base.yaml"], params={"lr": "fast"})
    assert info.value.source == str(files / "base.yaml")
    assert [(p.location, p.message) for p in info.value.problems] == [
        ("params.lr", "expected float, got 'fast'")
    ]
    with pytest.raises(SpecError) as missing:
        check([files / "nope.yaml"])
    assert missing.value.source == str(files / "nope.yaml")
    assert missing.value.problems[0].message == "cannot read the file: No such file or directory"
    with pytest.raises(SpecError, match="no polyaxonfile given"):
        check([])


def test_path_refs_are_relative_to_the_checked_file(tmp_path: Path):
    write(tmp_path, "component.yaml", BASE_COMPONENT)
    op = write(tmp_path, "op.yaml", "kind: operation\npathRef: component.yaml\nparams: {lr: 1}\n")
    compiled = check([op]).compiled
    assert compiled is not None
    assert compiled.run["container"]["args"] == ["--lr=1.0"]


def test_hooks_given_as_a_template_must_render_to_a_list():
    text = (
        "kind: component\n"
        "inputs: [{name: notify, type: list, value: [{hubRef: slack}], isOptional: true}]\n"
        "run: {kind: job, container: {image: busybox}}\n"
    )
    good = compile_operation(load(text + "hooks: '{{ notify }}'\n"))
    assert good.hooks == [{"hubRef": "slack"}]
    with pytest.raises(SpecError) as info:
        compile_operation(load(text + "hooks: '{{ nope }}'\n"))
    assert [p.location for p in info.value.problems] == ["hooks"]
