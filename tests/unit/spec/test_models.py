"""The polyaxonfile models: every field family, the 2.18 short forms and the §1.4 rules."""

import datetime as dt
from typing import Any

import pytest
import yaml

from axonal_spec.errors import SpecError
from axonal_spec.models import (
    IO,
    CronSchedule,
    Dag,
    DaskCluster,
    Init,
    IntervalSchedule,
    Job,
    Param,
    Polyaxonfile,
    PytorchJob,
    RayCluster,
    Service,
    TFJob,
)
from axonal_spec.parsing import load


def parse(text: str) -> Polyaxonfile:
    return load(text)


def problems(document: str | dict[str, Any]) -> list[tuple[str, str]]:
    with pytest.raises(SpecError) as caught:
        load(document)
    return [(p.location, p.message) for p in caught.value.problems]


def component(run: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"kind": "component", "run": run, **fields}


# --- inputs / outputs ----------------------------------------------------------------------


@pytest.mark.parametrize("name", ["globals", "params", "connections"])
def test_reserved_io_names_are_rejected(name: str):
    assert problems({"inputs": [{"name": name, "type": "str"}]}) == [
        ("inputs[0].name", f"'{name}' is a reserved name (connections, globals, params)")
    ]


def test_a_default_value_makes_an_io_optional():
    pf = parse("inputs: [{name: a, type: int, value: 1}, {name: b, value: null}, {name: c}]")
    assert [io.is_optional for io in pf.inputs or []] == [True, True, None]
    assert [io.is_required for io in pf.inputs or []] == [False, False, True]


def test_a_default_value_with_is_optional_false_is_rejected():
    assert problems({"outputs": [{"name": "x", "value": 3, "isOptional": False}]}) == [
        ("outputs[0].isOptional", "'x' has a default value 3, so it cannot be isOptional: false")
    ]


def test_is_flag_needs_a_bool_type():
    assert problems({"inputs": [{"name": "f", "type": "int", "isFlag": True}]}) == [
        ("inputs[0].isFlag", "isFlag needs type: bool, got type 'int'")
    ]
    assert parse("inputs: [{name: f, type: bool, isFlag: true}]").inputs


def test_options_and_delay_validation_move_into_validation():
    io = IO.model_validate({"name": "lr", "options": [0.1, 0.2], "delayValidation": True})
    assert io.validation is not None
    assert io.validation.options == [0.1, 0.2]
    assert io.validation.delay is True
    assert io.to_dict() == {
        "name": "lr",
        "validation": {"delay": True, "options": [0.1, 0.2]},
    }


def test_validation_fields_are_typed():
    assert problems({"inputs": [{"name": "a", "validation": {"minLength": "x"}}]}) == [
        ("inputs[0].validation.minLength", "expected an integer, got 'x'")
    ]


# --- params ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("written", "value"),
    [
        (0.1, 0.1),
        ("adam", "adam"),
        ([1, 2], [1, 2]),
        ({"optimizer": "adam", "lr": 0.1}, {"optimizer": "adam", "lr": 0.1}),
        (None, None),
        ({}, None),
    ],
)
def test_the_short_form_of_a_param_is_its_value(written: Any, value: Any):
    pf = Polyaxonfile.model_validate({"params": {"p": written}})
    assert pf.params == {"p": Param(value=value)}


def test_the_long_form_of_a_param():
    pf = parse(
        "params:\n"
        "  a: {value: 1, contextOnly: true, toEnv: A}\n"
        "  b: {ref: ops.train, value: outputs.loss}\n"
        "  c: {ref: dag, value: '{{ inputs.x }}'}\n"
        "  d: {ref: runs.7b6a3c3e-9b6a-4a4e-8f63-1b0e0f0c4d1a, value: artifacts.base.model}\n"
        "  e: {value: '{{ globals.uuid }}'}\n"
    )
    params = pf.params or {}
    assert params["a"].context_only is True
    assert params["a"].to_env == "A"
    assert (params["b"].ref_kind, params["b"].ref_entity) == ("ops", "train")
    assert (params["c"].ref_kind, params["c"].ref_entity) == ("dag", None)
    assert params["d"].ref_entity == "7b6a3c3e9b6a4a4e8f631b0e0f0c4d1a"
    assert params["e"].is_template
    assert not params["b"].is_template


@pytest.mark.parametrize(
    ("param", "location", "message"),
    [
        (
            {"ref": "op.x", "value": "outputs"},
            "params.p.ref",
            "ref must be 'dag', 'ops.<op-name>' or 'runs.<uuid>', got 'op.x'",
        ),
        (
            {"ref": "runs.not-a-uuid", "value": "outputs"},
            "params.p.ref",
            "ref must be 'dag', 'ops.<op-name>' or 'runs.<uuid>', got 'runs.not-a-uuid'",
        ),
        (
            {"ref": "ops.a", "value": 3},
            "params.p.value",
            "with a ref, value must be a string such as 'outputs.loss', got 3",
        ),
        (
            {"ref": "ops.a", "value": "metrics"},
            "params.p.value",
            "value must be one of globals, inputs, outputs, artifacts, io (or a dotted path), "
            "got 'metrics'",
        ),
        (
            {"ref": "ops.a", "value": "io.x"},
            "params.p.value",
            "value must start with one of globals, inputs, outputs, artifacts, got 'io.x'",
        ),
        (
            {"ref": "ops.a", "value": "outputs.a.b"},
            "params.p.value",
            "only artifacts.<x>.<y> may have three parts, got 'outputs.a.b'",
        ),
        (
            {"ref": "ops.a", "value": "artifacts.a.b.c"},
            "params.p.value",
            "cannot read 'artifacts.a.b.c' from a ref",
        ),
        (
            {"ref": "dag", "value": "outputs.loss"},
            "params.p.value",
            "a 'dag' ref cannot read the outputs of the current DAG",
        ),
        ({"value": 1, "foo": 2}, "params.p.foo", "unknown key 'foo'"),
    ],
)
def test_bad_params_are_rejected(param: dict[str, Any], location: str, message: str):
    assert problems({"params": {"p": param}}) == [(location, message)]


def test_join_params_take_no_ref():
    assert problems({"joins": [{"query": "q", "params": {"u": {"ref": "dag", "value": "x"}}}]}) == [
        ("joins[0].params.u.ref", "unknown key 'ref'")
    ]


# --- runtimes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "model"),
    [
        ("job", Job),
        ("service", Service),
        ("dag", Dag),
        ("tfjob", TFJob),
        ("pytorchjob", PytorchJob),
        ("raycluster", RayCluster),
        ("daskcluster", DaskCluster),
    ],
)
def test_the_runtime_follows_run_kind(kind: str, model: type):
    pf = load(component({"kind": kind}))
    assert isinstance(pf.runtime, model)
    assert pf.run_kind == kind


@pytest.mark.parametrize("kind", ["mpijob", "notifier", "tuner", "cleaner"])
def test_other_runtime_kinds(kind: str):
    assert load(component({"kind": kind})).run_kind == kind


def test_an_unknown_run_kind_lists_the_kinds():
    assert problems(component({"kind": "sparkjob"})) == [
        (
            "run.kind",
            "run.kind must be one of job, service, dag, tfjob, pytorchjob, mpijob, raycluster, "
            "daskcluster, notifier, tuner, cleaner; got 'sparkjob'",
        )
    ]


def test_a_service():
    pf = parse(
        "kind: component\nrun: {kind: service, ports: [8888, '8889'], rewritePath: true,"
        " isExternal: false, replicas: 2}"
    )
    assert isinstance(pf.runtime, Service)
    assert pf.runtime.ports == [8888, 8889]
    assert pf.runtime.rewrite_path is True
    assert pf.runtime.replicas == 2


def test_the_container_keeps_any_kubernetes_key():
    container = {
        "name": "main",
        "image": "python:3.11",
        "command": "python train.py",
        "args": ["--port", 8788, "--verbose"],
        "env": [{"name": "N", "value": 3}, {"name": "S", "valueFrom": {"secretKeyRef": {}}}],
        "resources": {"requests": {"cpu": "500m", "memory": "1Gi"}, "limits": {"cpu": 1}},
        "stdin": True,
        "lifecycle": {"preStop": {"exec": {"command": ["sleep", "1"]}}},
        "startupProbe": {"httpGet": {"path": "/", "port": 80}},
        "securityContext": {"runAsUser": 1000},
        "imagePullPolicy": "Always",
        "workingDir": "/code",
    }
    pf = load(component({"kind": "job", "container": container}))
    assert isinstance(pf.runtime, Job)
    dumped = pf.to_dict()["run"]["container"]  # type: ignore[index]
    assert dumped["args"] == ["--port", "8788", "--verbose"]
    assert dumped["env"][0] == {"name": "N", "value": "3"}
    assert dumped["stdin"] is True
    assert dumped["lifecycle"] == container["lifecycle"]
    assert dumped["command"] == "python train.py"


def test_container_resources_in_per_resource_form():
    pf = load(
        component(
            {
                "kind": "job",
                "container": {
                    "resources": {"cpu": {"requests": 4, "limits": 8}, "memory": "1..2Gi"}
                },
            }
        )
    )
    assert pf.runtime is not None


@pytest.mark.parametrize(
    ("resources", "location"),
    [
        ({"limits": {"cpu": "lots"}}, "run.container.resources.limits.cpu"),
        ({"cpu": {"requests": "x"}}, "run.container.resources.cpu"),
    ],
)
def test_bad_quantities_are_rejected(resources: dict[str, Any], location: str):
    [(where, message)] = problems(component({"kind": "job", "container": {"resources": resources}}))
    assert where == location
    assert message.startswith("expected a resource quantity such as 500m or 8Gi, got")


def test_the_environment():
    pf = parse(
        "kind: component\nrun:\n  kind: job\n  environment:\n"
        "    nodeSelector: {polyaxon: experiments, tier: 2}\n"
        "    imagePullSecrets: [a, b]\n    restartPolicy: OnFailure\n"
        "    tolerations: [{key: k, operator: Exists}]\n"
    )
    assert isinstance(pf.runtime, Job)
    assert pf.to_dict()["run"]["environment"]["nodeSelector"] == {  # type: ignore[index]
        "polyaxon": "experiments",
        "tier": "2",
    }
    assert problems(component({"kind": "job", "environment": {"restartPolicy": "Sometimes"}})) == [
        (
            "run.environment.restartPolicy",
            "must be 'Always', 'OnFailure', 'Never' or 'ExitCode', got 'Sometimes'",
        )
    ]


@pytest.mark.parametrize(
    "item",
    [
        {"git": {"url": "https://x"}},
        {"git": {"revision": "main"}, "connection": "repo"},
        {"connection": "repo"},
        {"container": {"image": "busybox"}},
        {"file": {"content": "print(1)", "filename": "a.py"}},
        {"dockerfile": {"image": "python", "copy": ["a"], "langEnv": "en_US.UTF-8"}},
        {"artifacts": {"files": ["a", ["b", "c"]], "dirs": ["d"]}},
        {"paths": ["a", ["b", "c"]]},
        {"tensorboard": {"uuids": "a,b", "port": 6006}},
        {"lineageRef": "x", "path": "/p"},
        {"git": "{{ repo }}"},
    ],
)
def test_init_items(item: dict[str, Any]):
    pf = load(component({"kind": "job", "init": [item]}))
    assert isinstance(pf.runtime, Job)
    assert isinstance(pf.runtime.init, list)
    assert isinstance(pf.runtime.init[0], Init)


@pytest.mark.parametrize(
    ("item", "location", "message"),
    [
        (
            {"git": {"url": "x"}, "file": {"content": "y"}},
            "run.init[0].file",
            "an init item takes one of artifacts, paths, git, dockerfile, file, tensorboard, "
            "lineageRef, modelRef, artifactRef; got git, file",
        ),
        (
            {"path": "/x"},
            "run.init[0]",
            "an init item needs one of artifacts, paths, git, dockerfile, file, tensorboard, "
            "lineageRef, modelRef, artifactRef, a connection or a container",
        ),
        ({"git": {"revision": "main"}}, "run.init[0].git", "git without a url needs a connection"),
        ({"file": {"filename": "a"}}, "run.init[0].file.content", "missing required key 'content'"),
    ],
)
def test_bad_init_items(item: dict[str, Any], location: str, message: str):
    assert problems(component({"kind": "job", "init": [item]})) == [(location, message)]


def test_distributed_runtimes():
    pf = parse(
        "kind: component\nrun:\n  kind: tfjob\n  cleanPodPolicy: All\n"
        "  worker: {replicas: '2', container: {image: x}}\n  chief: {replicas: 1}\n"
    )
    assert isinstance(pf.runtime, TFJob)
    assert pf.runtime.replica_types() == ["chief", "worker"]
    torch = load(
        component(
            {
                "kind": "pytorchjob",
                "elasticPolicy": {"rdvzBackend": "c10d", "Metrics": [{"type": "Resource"}]},
                "master": {"replicas": 1},
            }
        )
    )
    assert isinstance(torch.runtime, PytorchJob)
    assert torch.runtime.elastic_policy is not None
    assert torch.runtime.elastic_policy.metrics == [{"type": "Resource"}]
    ray = load(
        component(
            {"kind": "raycluster", "head": {"rayStartParams": {"a": "1"}}, "workers": {"small": {}}}
        )
    )
    assert isinstance(ray.runtime, RayCluster)
    assert ray.runtime.replica_types() == ["head", "small"]
    assert problems(component({"kind": "tfjob", "cleanPodPolicy": "Some"})) == [
        ("run.cleanPodPolicy", "must be 'All', 'Running' or 'None', got 'Some'")
    ]


# --- helpers -------------------------------------------------------------------------------


def test_quoted_integers_are_accepted_where_they_convert_cleanly():
    pf = parse(
        "termination: {maxRetries: '3', ttl: 22.0, timeout: ' 60 '}\n"
        "joins: [{query: 'kind:job', limit: '5', offset: 2}]\n"
        "cache: {ttl: '100'}\n"
    )
    assert pf.to_dict()["termination"] == {"maxRetries": 3, "ttl": 22, "timeout": 60}
    assert pf.to_dict()["joins"] == [{"query": "kind:job", "limit": 5, "offset": 2}]


@pytest.mark.parametrize(
    ("document", "location", "message"),
    [
        (
            {"termination": {"maxRetries": "3.5"}},
            "termination.maxRetries",
            "expected an integer, got '3.5'",
        ),
        ({"termination": {"ttl": True}}, "termination.ttl", "expected an integer, got True"),
        (
            {"joins": [{"query": "q", "limit": 6000}]},
            "joins[0].limit",
            "limit must be between 1 and 5000, got 6000",
        ),
        ({"joins": [{"limit": 1}]}, "joins[0].query", "missing required key 'query'"),
        (
            {"cache": {"sections": ["outputs"]}},
            "cache.sections[0]",
            "must be 'containers', 'init' or 'connections', got 'outputs'",
        ),
        ({"cost": "cheap"}, "cost", "expected a number, got 'cheap'"),
        ({"isApproved": "maybe"}, "isApproved", "expected a boolean, got 'maybe'"),
    ],
)
def test_bad_helper_values(document: dict[str, Any], location: str, message: str):
    assert problems(document) == [(location, message)]


def test_schedules():
    cron = parse("schedule: {kind: cron, cron: '0 0 * * MON', maxRuns: 3}").schedule
    assert isinstance(cron, CronSchedule)
    interval = Polyaxonfile.model_validate(
        {"schedule": {"kind": "interval", "frequency": dt.timedelta(minutes=2)}}
    ).schedule
    assert isinstance(interval, IntervalSchedule)
    assert interval.frequency == 120
    at = parse("schedule: {kind: datetime, startAt: 2030-01-01T10:00:00Z}").to_dict()
    assert at["schedule"] == {"kind": "datetime", "startAt": "2030-01-01T10:00:00Z"}
    assert problems({"schedule": {"kind": "weekly"}}) == [
        ("schedule.kind", "schedule.kind must be one of cron, interval, datetime; got 'weekly'")
    ]
    assert problems({"schedule": {"cron": "* * * * *"}}) == [
        ("schedule.kind", "schedule.kind must be one of cron, interval, datetime; kind is missing")
    ]
    assert problems({"schedule": {"kind": "cron"}}) == [
        ("schedule.cron", "missing required key 'cron'")
    ]


def test_trigger_policies_and_patch_strategies():
    assert parse("trigger: one_done").trigger == "one_done"
    assert parse("trigger: '{{ policy }}'").trigger == "{{ policy }}"
    assert problems({"trigger": "sometimes"}) == [
        (
            "trigger",
            "must be 'all_succeeded', 'all_failed', 'all_done', 'one_succeeded', 'one_failed' "
            "or 'one_done', got 'sometimes'",
        )
    ]
    assert problems({"patchStrategy": "merge"}) == [
        ("patchStrategy", "must be 'replace', 'isnull', 'post_merge' or 'pre_merge', got 'merge'")
    ]


@pytest.mark.parametrize(
    "trigger", ["succeeded", "failed", "stopped", "skipped", "upstream_failed", "done"]
)
def test_hook_triggers(trigger: str):
    assert parse(f"hooks: [{{hubRef: slack, trigger: {trigger}}}]").hooks


def test_a_hook_trigger_must_be_a_final_status():
    assert problems({"hooks": [{"hubRef": "slack", "trigger": "running"}]}) == [
        (
            "hooks[0].trigger",
            "must be 'succeeded', 'failed', 'stopped', 'skipped', 'upstream_failed' or 'done', "
            "got 'running'",
        )
    ]
    assert problems({"hooks": [{"trigger": "done"}]}) == [
        ("hooks[0].hubRef", "missing required key 'hubRef'")
    ]


def test_events():
    pf = parse("events: [{kinds: [run_status_running, run_new_artifacts], ref: ops.train}]")
    assert pf.events
    assert problems({"events": [{"kinds": ["run_status_fine"], "ref": "ops.a"}]}) == [
        ("events[0].kinds[0]", "unknown event kind 'run_status_fine' (see the spec, §4.3)")
    ]
    assert problems({"events": [{"kinds": ["run_status_done"], "ref": "dag"}]}) == [
        ("events[0].ref", "ref must be 'ops.<op-name>' or 'runs.<uuid>', got 'dag'")
    ]


@pytest.mark.parametrize(
    "field",
    ["cache", "termination", "plugins", "build", "hooks", "events", "joins", "dependencies"],
)
def test_xorref_fields_accept_a_template(field: str):
    pf = Polyaxonfile.model_validate({field: "{{ " + field + " }}"})
    assert getattr(pf, field) == "{{ " + field + " }}"


def test_a_plain_string_is_not_a_template():
    assert problems({"cache": "off"}) == [("cache", "expected a mapping, got 'off'")]


def test_matrix_and_early_stopping_errors_are_located():
    found = problems(
        {
            "kind": "component",
            "matrix": {"kind": "sweep"},
            "run": {"kind": "dag", "earlyStopping": [{"kind": "failure_early_stopping"}]},
        }
    )
    assert [location for location, _ in found] == ["matrix.kind", "run.earlyStopping[0].percent"]


def test_template_mount_and_presets():
    pf = parse(
        "template: {enabled: true, fields: [destination.value]}\n"
        "mount: ['./src:/code', {from: ./data, to: /data}]\n"
        "presets: 'a, b'\ntags: [x]\n"
    )
    assert pf.presets == ["a", "b"]
    assert pf.to_dict()["mount"] == ["./src:/code", {"from": "./data", "to": "/data"}]


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
        ({"pathRef": "./b.yaml", "component": {"run": {"kind": "job"}}}, "component"),
    ],
)
def test_at_most_one_reference(refs: dict[str, Any], second: str):
    [(location, message)] = problems({"kind": "operation", **refs})
    assert location == second
    assert message.startswith("only one of hubRef, dagRef, urlRef, pathRef, component may be set")


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
