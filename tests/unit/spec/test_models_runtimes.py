"""The polyaxonfile models: runtimes, containers, environment, init and distributed kinds."""

from typing import Any

import pytest

from axonal_spec.models import (
    Dag,
    DaskCluster,
    Init,
    Job,
    PytorchJob,
    RayCluster,
    Service,
    TFJob,
)
from axonal_spec.parsing import load

from .models_support import component, parse, problems

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
