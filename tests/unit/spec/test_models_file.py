"""The polyaxonfile models: the file itself (version, kind, references, composition fields)."""

from typing import Any

import pytest
import yaml

from axonal_spec.models import (
    Job,
)
from axonal_spec.parsing import load

from .models_support import component, parse, problems

# --- the file --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["1", "1.1", "'1.1'"])
def test_version_is_accepted(version: str):
    assert parse(f"version: {version}\nkind: component\nrun: {{kind: job}}").run_kind == "job"


def test_kind_is_optional_but_checked():
    assert parse("run: {kind: job}").kind is None
    assert problems({"kind": "pipeline"}) == [
        ("kind", "must be 'component' or 'operation', got 'pipeline'")
    ]


def test_names_follow_the_slug_rule():
    assert parse("name: my-op_1").name == "my-op_1"
    assert parse("name: '{{ name }}'").name == "{{ name }}"
    assert problems({"name": "my op"}) == [
        ("name", "a name may only hold letters, digits, '-' and '_', got 'my op'")
    ]


@pytest.mark.parametrize(
    ("refs", "second"),
    [
        ({"hubRef": "a", "urlRef": "https://x"}, "urlRef"),
        ({"dagRef": "a", "pathRef": "./b.yaml"}, "pathRef"),
        ({"urlRef": "https://x", "pathRef": "./b.yaml", "component": {"run": {}}}, "pathRef"),
    ],
)
def test_at_most_one_named_reference(refs: dict[str, Any], second: str):
    [(location, message)] = problems({"kind": "operation", **refs})
    assert location == second
    assert message.startswith("only one of hubRef, dagRef, urlRef, pathRef may be set")


@pytest.mark.parametrize("key", ["hubRef", "dagRef", "urlRef", "pathRef"])
def test_an_inline_component_next_to_a_reference_wins(key: str):
    """Polyaxon counts ``component`` only when alone: next to a reference it is that reference
    resolved, and it is what runs."""
    op = load({"kind": "operation", key: "x", "component": {"run": {"kind": "service"}}})
    assert op.references[-1] == "component"
    assert op.reference_kind == "component"
    assert op.run_kind == "service"


def test_a_preset_may_carry_several_references():
    pf = load({"isPreset": True, "hubRef": "a", "urlRef": "https://x"})
    assert pf.references == ["hub", "url"]
    assert pf.is_fragment


def test_reference_accessors():
    op = parse("kind: operation\nhubRef: acme/kaniko:v1")
    assert (op.reference_kind, op.reference) == ("hub", "acme/kaniko:v1")
    inline = parse("kind: operation\ncomponent: {run: {kind: service}}")
    assert inline.reference_kind == "component"
    assert inline.run_kind == "service"
    assert parse("kind: component\nrun: {kind: job}").reference is None


def test_a_kindless_run_patches_a_referenced_component():
    assert isinstance(parse("kind: operation\nhubRef: x\nrun: {container: {image: y}}").run, dict)
    op = parse("kind: operation\ncomponent: {run: {kind: job}}\nrun: {container: {image: y}}")
    assert isinstance(op.run, Job)
    assert problems({"kind": "component", "run": {"container": {"image": "y"}}}) == [
        (
            "run.kind",
            "run.kind is required (a run without kind only patches a referenced component)",
        )
    ]


def test_dag_operation_names_are_required_and_unique():
    dag = {
        "kind": "dag",
        "operations": [
            {"name": "a", "dagRef": "c"},
            {"dagRef": "c"},
            {"name": "a", "hubRef": "h"},
        ],
        "components": [
            {"name": "c", "run": {"kind": "job"}},
            {"name": "c", "run": {"kind": "job"}},
        ],
    }
    assert problems(component(dag)) == [
        ("run.components[1].name", "duplicate component name 'c' (also components[0])"),
        ("run.operations[1].name", "a DAG operation needs a name"),
        ("run.operations[2].name", "duplicate operation name 'a' (also operations[0])"),
    ]


def test_dag_ref_names_a_component_of_the_dag():
    dag = {
        "kind": "dag",
        "operations": [{"name": "a", "dagRef": "missing"}],
        "components": [{"name": "c", "run": {"kind": "job"}}],
    }
    assert problems(component(dag)) == [
        (
            "run.operations[0].dagRef",
            "dagRef 'missing' names no component of this DAG (components: c)",
        )
    ]
    pf = load(component({**dag, "operations": [{"name": "a", "dagRef": "c"}]}))
    assert pf.dag is not None
    assert pf.dag.component_named("c") is not None


def test_errors_inside_nested_operations_are_located():
    dag = {
        "kind": "dag",
        "operations": [
            {"name": "a", "component": {"run": {"kind": "job", "container": {"image": 3}}}}
        ],
    }
    assert problems(component(dag)) == [
        ("run.operations[0].component.run.container.image", "expected a string, got 3")
    ]


def test_build_is_not_allowed_on_a_dag():
    assert problems(component({"kind": "dag"}, build={"hubRef": "kaniko"})) == [
        ("build", "build is not allowed on a dag runtime")
    ]
    assert load(component({"kind": "job"}, build={"hubRef": "kaniko"})).build


@pytest.mark.parametrize("plugin", ["sandbox", "ssh"])
def test_sandbox_and_ssh_only_on_services(plugin: str):
    assert problems(component({"kind": "job"}, plugins={plugin: True})) == [
        (f"plugins.{plugin}", f"plugins.{plugin} is only allowed on a service runtime, not job")
    ]
    assert problems(
        {"kind": "operation", "plugins": {plugin: True}, "component": {"run": {"kind": "dag"}}}
    ) == [(f"plugins.{plugin}", f"plugins.{plugin} is only allowed on a service runtime, not dag")]
    assert load(component({"kind": "service"}, plugins={plugin: True})).plugins
    assert load({"hubRef": "x", "plugins": {plugin: True}}).plugins  # kind unknown here


def test_an_undeclared_param_cannot_be_context_only_false():
    op = {
        "kind": "operation",
        "params": {"lr": 0.1, "extra": {"value": 1, "contextOnly": False}, "ctx": 2},
        "component": {"inputs": [{"name": "lr", "type": "float"}], "run": {"kind": "job"}},
    }
    assert problems(op) == [
        (
            "params.extra.contextOnly",
            "param 'extra' matches no input/output, so it cannot be contextOnly: false",
        )
    ]


@pytest.mark.parametrize("where", ["operation", "component"])
def test_strict_params_need_context_only(where: str):
    inner: dict[str, Any] = {"outputs": [{"name": "loss", "type": "float"}], "run": {"kind": "job"}}
    op: dict[str, Any] = {"kind": "operation", "component": inner}
    (op if where == "operation" else inner)["strictParams"] = True
    op["params"] = {"loss": 1.0, "note": "x", "ok": {"value": 1, "contextOnly": True}}
    assert problems(op) == [
        (
            "params.note",
            "strictParams: param 'note' matches no input/output; "
            "declare it or set contextOnly: true",
        )
    ]


def test_dag_ref_params_are_checked_against_the_dag_component():
    dag = {
        "kind": "dag",
        "operations": [
            {"name": "a", "dagRef": "c", "strictParams": True, "params": {"x": 1, "y": 2}}
        ],
        "components": [
            {"name": "c", "inputs": [{"name": "x", "type": "int"}], "run": {"kind": "job"}}
        ],
    }
    assert problems(component(dag)) == [
        (
            "run.operations[0].params.y",
            "strictParams: param 'y' matches no input/output; declare it or set contextOnly: true",
        )
    ]


def test_params_of_a_hub_reference_are_left_to_the_compiler():
    assert load({"hubRef": "x", "strictParams": True, "params": {"anything": 1}}).params


def test_root_shortcuts():
    pf = parse(
        "container: {image: python:3.11}\n"
        "cmd: |\n  pip install x\n  python train.py\n"
        "env: {A: '1'}\n"
        "resources: {cpu: '500m..1', memory: 2Gi, gpu: 1, nvidia.com/gpu: '1..2',"
        " ephemeral-storage: 1Gi}\n"
        "ports: [8888]\n"
        "environment: {labels: {a: b}}\n"
        "init: [{git: {url: 'https://x'}}]\n"
        "connections: [data]\n"
        "sidecars: [{name: s, image: busybox}]\n"
        "volumes: [{name: v, emptyDir: {}}]\n"
    )
    assert pf.cmd == "pip install x\npython train.py\n"
    assert pf.resources is not None
    assert not pf.is_fragment  # a container makes it runnable
    assert parse("resources: {gpu: 1}\nenv: {A: b}").is_fragment
    assert parse("cmd: [python, train.py]").cmd == ["python", "train.py"]


@pytest.mark.parametrize(
    ("document", "location", "message"),
    [
        ({"env": {"A": 1}}, "env.A", "expected a string, got 1"),
        (
            {"resources": {"cpus": 1}},
            "resources.cpus",
            "unknown resource 'cpus' "
            "(use cpu, memory, gpu, ephemeral-storage or <domain>/<resource>)",
        ),
        (
            {"resources": {"cpu": "1..2..3"}},
            "resources.cpu",
            "expected a resource quantity such as 500m or 8Gi, got '1..2..3'",
        ),
        ({"ports": ["http"]}, "ports[0]", "expected an integer, got 'http'"),
        ({"cmd": {"a": 1}}, "cmd", "expected a string, got a mapping"),
        (
            {"queue": "a/b/c"},
            "queue",
            "queue must be 'queue-name' or 'agent-name/queue-name', got 'a/b/c'",
        ),
    ],
)
def test_bad_root_shortcuts(document: dict[str, Any], location: str, message: str):
    assert problems(document) == [(location, message)]


def test_a_queue_may_name_its_agent():
    assert parse("queue: agent-1/gpu").queue == "agent-1/gpu"


def test_all_problems_are_reported_together():
    found = problems(
        yaml.safe_load(
            "kind: component\ntermination: {maxRetries: x}\ninputs: [{type: int}]\n"
            "run: {kind: job, container: {image: 1}}\nfooBar: 1\n"
        )
    )
    assert sorted(found) == [
        ("fooBar", "unknown key 'fooBar'"),
        ("inputs[0].name", "missing required key 'name'"),
        ("run.container.image", "expected a string, got 1"),
        ("termination.maxRetries", "expected an integer, got 'x'"),
    ]
