"""Templates: native rendering, the sandbox, ops./dag. rejection, and the run context."""

import pytest

from axonal_spec.context import GLOBAL_KEYS, ParamInfo, build_context, build_globals
from axonal_spec.errors import SpecError
from axonal_spec.templates import find_references, is_template, render

CTX = {
    "lr": 0.1,
    "epochs": 10,
    "name": "123",
    "tags": ["a", "b"],
    "flag": True,
    "globals": {"uuid": "abc", "artifacts_path": "/plx-context/artifacts", "ports": [8888]},
    "params": {"lr": {"value": 0.1, "as_arg": "--lr=0.1"}},
    "inputs": {"values": 3, "lr": 0.1},
    "connections": {"data": {"url": "s3://bucket"}},
}


def one_problem(exc: pytest.ExceptionInfo[SpecError]) -> tuple[str, str, str | None]:
    [p] = exc.value.problems
    return p.location, p.message, p.hint


# --- rendering -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("{{ lr }}", 0.1),
        ("{{ epochs }}", 10),
        ("{{ tags }}", ["a", "b"]),
        ("{{ flag }}", True),
        ("{{ name }}", "123"),  # a str stays a str (no literal_eval)
        ("{{ 1 }}", 1),
        ("{{ [lr, epochs] }}", [0.1, 10]),
        ("{{ epochs * 2 }}", 20),
        ("{{ globals.ports[0] }}", 8888),
        ("{{ connections['data'].url }}", "s3://bucket"),
        ("{{ params.lr.as_arg }}", "--lr=0.1"),
        ("{{ inputs.values }}", 3),  # keys win over dict methods
        ("{% if flag %}{{ lr }}{% endif %}", 0.1),
        ("--lr={{ lr }}", "--lr=0.1"),
        ("{{ lr }} ", "0.1 "),
        ("{{ epochs }}{{ epochs }}", "1010"),
        ("{{ globals.artifacts_path }}/code", "/plx-context/artifacts/code"),
        ("{% if not flag %}--x{% endif %}", ""),
        ("{{ lr if lr is defined else 0 }}", 0.1),
        ("{{ missing | default('d') }}", "d"),
        ("plain text", "plain text"),
        ("{ not: a template }", "{ not: a template }"),
    ],
)
def test_render_native_and_string(source, expected):
    result = render(source, CTX, location="run.container.args[0]")
    assert result == expected
    assert type(result) is type(expected)


def test_render_walks_dicts_and_lists_and_leaves_the_rest():
    value = {"args": ["--lr={{ lr }}", "{{ epochs }}", 3, None], "env": {"{{ x }}": "{{ name }}"}}
    assert render(value, CTX, location="run") == {
        "args": ["--lr=0.1", 10, 3, None],
        "env": {"{{ x }}": "123"},
    }


def test_render_reports_every_failure_at_its_location():
    value = {"a": ["{{ nope }}", "ok"], "b": "{{ lr }", "c": "{{ 1 / 0 }}"}
    with pytest.raises(SpecError) as exc:
        render(value, CTX, location="run.container")
    assert [(p.location, p.message) for p in exc.value.problems] == [
        ("run.container.a[0]", "undefined 'nope' in '{{ nope }}'"),
        ("run.container.b", "template syntax error in '{{ lr }': unexpected '}'"),
        ("run.container.c", "cannot render '{{ 1 / 0 }}': division by zero"),
    ]


@pytest.mark.parametrize(
    "source", ["{{ foo }}", "x-{{ foo }}", "{{ [foo] }}", "{{ {'a': foo} }}", "{{ params.nope }}"]
)
def test_undefined_names_are_errors(source):
    with pytest.raises(SpecError) as exc:
        render(source, CTX, location="run.x")
    location, message, _ = one_problem(exc)
    assert location == "run.x"
    assert "undefined" in message
    assert repr(source) in message


@pytest.mark.parametrize(
    "source",
    [
        "{{ ''.__class__.__mro__ }}",
        "{{ ''.__class__ }}",
        "{{ tags.__class__.__base__.__subclasses__() }}",
        "{{ tags.append('c') }}",
        "{{ globals.update({'uuid': 'x'}) }}",
        "{{ 'a' * 1000000 }}",
        "{{ 10 ** 100000 }}",
        "{{ range(10 ** 9) | list }}",
        "{{ lipsum.__globals__ }}",
    ],
)
def test_sandbox_refuses_unsafe_templates(source):
    before = (list(CTX["tags"]), dict(CTX["globals"]))
    with pytest.raises(SpecError) as exc:
        render(source, CTX, location="run.x")
    assert one_problem(exc)[0] == "run.x"
    assert (CTX["tags"], CTX["globals"]) == before


def test_sandbox_message_is_one_line_and_names_the_template():
    with pytest.raises(SpecError) as exc:
        render("{{ ''.__class__.__mro__ }}", CTX, location="run.x")
    _, message, _ = one_problem(exc)
    assert message.startswith("unsafe template \"{{ ''.__class__.__mro__ }}\"")
    assert "\n" not in message


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("{{ ops.train.outputs.loss }}", "use `ref: ops.train` with `value: outputs.loss`"),
        ("{{ ops['train'].outputs['loss'] }}", "use `ref: ops.train` with `value: outputs.loss`"),
        ("--uuid={{ ops.build.globals.uuid }}", "use `ref: ops.build` with `value: globals.uuid`"),
        ("{{ ops.train }}", "use `ref: ops.train` with `value: outputs.<name>`"),
        ("{{ dag.inputs.x }}", "use `ref: dag` with `value: inputs.x`"),
        ("{% if dag.inputs.x %}y{% endif %}", "use `ref: dag` with `value: inputs.x`"),
    ],
)
def test_ops_and_dag_reads_are_rejected_with_a_hint(source, hint):
    for check in (
        lambda: find_references({"p": source}, location="run.operations[1].params"),
        lambda: render({"p": source}, {"ops": {}, "dag": {}}, location="run.operations[1].params"),
    ):
        with pytest.raises(SpecError) as exc:
            check()
        location, message, got_hint = one_problem(exc)
        assert location == "run.operations[1].params.p"
        assert message.startswith("templates cannot read")
        assert got_hint == hint


def test_find_references():
    value = {
        "cmd": [
            "--lr={{ lr }}",
            "{{ params.as_args }}",
            "{% for i in range(3) %}{{ i }}{% endfor %}",
        ],
        "dir": "{{ globals.artifacts_path }}/{{ connections['c'].url }}",
        "n": 3,
        "plain": "no template",
    }
    assert find_references(value) == {"lr", "params", "globals", "connections"}
    assert find_references("nothing") == set()


def test_find_references_reports_syntax_errors():
    with pytest.raises(SpecError) as exc:
        find_references({"a": "{{ x }", "b": "{% if %}"}, location="run")
    assert [p.location for p in exc.value.problems] == ["run.a", "run.b"]


def test_is_template():
    assert is_template("{{ x }}")
    assert is_template("{% if x %}{% endif %}")
    assert not is_template("{x}")
    assert not is_template(3)


def test_many_values_render_in_one_pass():  # its speed: bench/spec.py
    values = [f"--p{i}={{{{ lr }}}}" for i in range(2000)]
    assert render(values, CTX, location="x")[1999] == "--p1999=0.1"


# --- globals and the run context -------------------------------------------------------------


def test_build_globals_paths_and_keys():
    g = build_globals(uuid="u1", project_name="proj", owner_name="acme", name="train", iteration=2)
    assert set(g) == set(GLOBAL_KEYS)
    assert g["context_path"] == "/plx-context"
    assert g["artifacts_path"] == "/plx-context/artifacts"
    assert g["run_artifacts_path"] == "/plx-context/artifacts/u1"
    assert g["run_outputs_path"] == "/plx-context/artifacts/u1/outputs"
    assert g["run_relative_outputs_path"] == "u1/outputs"
    assert g["project_unique_name"] == "acme.proj"
    assert g["run_info"] == "acme.proj.runs.u1"
    assert (g["name"], g["iteration"], g["status"]) == ("train", 2, None)


def test_build_globals_for_services_and_bad_keys():
    g = build_globals(uuid="u1", project_name="p", ports=[8888, 8889], context_path="/ctx")
    assert g["ports"] == ["{{ globals.ports[0] }}", "{{ globals.ports[1] }}"]
    assert g["base_url"] == "{{ globals.base_url }}"
    assert g["run_outputs_path"] == "/ctx/artifacts/u1/outputs"
    with pytest.raises(TypeError):
        build_globals(uuid="u", project_name="p", colour="red")
    with pytest.raises(TypeError):
        build_globals(uuid="u", project_name="p", run_outputs_path="/x")


def make_context(**kwargs):
    return build_context(run_globals=build_globals(uuid="u1", project_name="p"), **kwargs)


def test_context_params_and_as_args():
    ctx = make_context(
        inputs=[
            ParamInfo("lr", 0.01, "float"),
            ParamInfo("opt", "adam", "str"),
            ParamInfo("debug", value=True, type="bool", is_flag=True),
            ParamInfo("quiet", value=False, type="bool", is_flag=True),
            ParamInfo("verbose", value=True, type="bool"),
            ParamInfo("dry_run", value=False, type="bool"),
            ParamInfo("layers", [64, 32], "List[int]"),
            ParamInfo("seed", None, "int"),
            ParamInfo("batch", 32, "int", arg_format="-b {{ batch }}"),
            ParamInfo("data", "s3://b/k", "s3", connection="store"),
        ],
        outputs=[ParamInfo("loss", None, "float")],
        context_params=[ParamInfo("note", "x")],
        connections={"store": {"url": "s3://b"}},
    )
    assert ctx["params"]["as_args"] == (
        "--lr=0.01 --opt=adam --debug --verbose --layers=[64,32] -b 32 --data=s3://b/k"
    )
    assert ctx["params"]["lr"] == {
        "value": 0.01,
        "type": "float",
        "connection": None,
        "as_arg": "--lr=0.01",
        "as_str": "0.01",
    }
    assert ctx["params"]["debug"]["as_str"] == "--debug"
    assert ctx["params"]["quiet"]["as_arg"] == ""
    assert ctx["params"]["seed"]["as_arg"] == ""
    assert ctx["params"]["seed"]["as_str"] == ""
    assert ctx["params"]["data"]["connection"] == "store"
    assert ctx["params"]["note"]["as_arg"] == "--note=x"  # but not in as_args (context only)
    assert ctx["connections"] == {"store": {"url": "s3://b"}}
    assert ctx["inputs"]["layers"] == [64, 32]
    assert ctx["outputs"] == {"loss": None}
    assert (ctx["lr"], ctx["note"], ctx["loss"]) == (0.01, "x", None)
    assert ctx["globals"]["uuid"] == "u1"
    assert ctx["artifacts"]["outputs"] == "/plx-context/artifacts/u1/outputs"
    rendered = render(
        ["python", "train.py", "{{ params.as_args }}", "--opt={{ opt }}", "{{ params.lr.as_arg }}"],
        ctx,
        location="run.container.args",
    )
    assert rendered[2:] == [ctx["params"]["as_args"], "--opt=adam", "--lr=0.01"]


def test_arg_format_errors_are_located():
    with pytest.raises(SpecError) as exc:
        make_context(inputs=[ParamInfo("a", 1), ParamInfo("b", 2, arg_format="{{ nope }}")])
    assert one_problem(exc)[0] == "inputs[1].argFormat"


def test_resolution_order_later_sources_win():
    ctx = make_context(
        inputs=[ParamInfo("lr", 0.1, "float"), ParamInfo("epochs", 5, "int")],
        outputs=[ParamInfo("lr", 0.2, "float")],
        context_params=[ParamInfo("epochs", 6)],
        join_params={"epochs": [7, 8], "runs": ["a", "b"]},
        matrix_params={"epochs": 9, "seed": 1},
    )
    assert ctx["lr"] == 0.2  # outputs after inputs
    assert ctx["epochs"] == 9  # matrix last
    assert ctx["runs"] == ["a", "b"]  # join params
    assert ctx["seed"] == 1
    assert ctx["params"]["epochs"]["value"] == 9
    assert ctx["params"]["as_args"] == "--lr=0.2"  # epochs became context-only, seed/runs too


def test_matrix_value_keeps_the_declared_io_metadata():
    ctx = make_context(
        inputs=[
            ParamInfo("lr", 0.1, "float"),
            ParamInfo("fast", value=False, type="bool", is_flag=True),
        ],
        matrix_params={"lr": 0.5, "fast": True},
    )
    assert ctx["inputs"] == {"lr": 0.5, "fast": True}
    assert ctx["params"]["as_args"] == "--lr=0.5 --fast"
    assert ctx["params"]["lr"]["type"] == "float"


def test_structural_keys_win_over_param_names():
    ctx = make_context(inputs=[ParamInfo("globals", 1), ParamInfo("x", 2)])
    assert isinstance(ctx["globals"], dict)
    assert ctx["x"] == 2
