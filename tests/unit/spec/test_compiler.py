"""compile_operation(): params, refs to dag inputs and upstream outputs, templates and
conditions, with every problem located."""

from textwrap import dedent

import pytest

from axonal_spec.errors import SpecError
from axonal_spec.outcome import Deferred, ResolvedIO

from .compiler_support import OUTPUTS, compile_text, dag, io, problems

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
