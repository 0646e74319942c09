"""compile_operation(): root shortcuts, runPatch on referenced components, and DAGs."""

from pathlib import Path

import pytest

from axonal_spec.compiler import compile_operation
from axonal_spec.errors import SpecError
from axonal_spec.parsing import load

from .compiler_support import BASE_COMPONENT, compile_text, dag, problems, write

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
    # The executor chooses the port and base URL: they stay placeholders until it starts.
    assert compiled.run["container"]["args"] == ["{{ globals.ports[0] }}", "{{ globals.base_url }}"]


def test_a_file_with_nothing_to_run_is_an_error():
    assert problems("kind: component\nname: x\n") == [
        ("run", "nothing to run: the component has no run, container or cmd")
    ]


# ---------------------------------------------------------------------------------------------
# runPatch on referenced components


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
