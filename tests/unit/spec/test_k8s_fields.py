"""Unknown fields of the Kubernetes-shaped sections are refused with the closest valid name."""

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from axonal_spec.models.k8s_fields import camel_fields, unknown_fields
from axonal_spec.parsing import load

from .models_support import component, problems

ROOT = Path(__file__).resolve().parents[3]
GENERATOR = ROOT / "libs/spec/tools/k8s_fields.py"
COMMITTED = ROOT / "libs/spec/src/axonal_spec/models/k8s_fields.json"


def job(**fields: Any) -> dict[str, Any]:
    return component({"kind": "job", **fields})


def test_a_typo_in_a_container_names_the_field_it_meant():
    found = problems(job(container={"image": "python", "comand": ["python", "train.py"]}))
    assert found == [("run.container.comand", "unknown field; did you mean 'command'?")]


@pytest.mark.parametrize(
    ("fields", "location", "meant"),
    [
        ({"sidecars": [{"name": "s", "imag": "x"}]}, "run.sidecars[0].imag", "image"),
        (
            {"init": [{"container": {"name": "i", "workDir": "/"}}]},
            "run.init[0].container.workDir",
            "workingDir",
        ),
        (
            {"container": {"livenessProbe": {"httpGet": {"paht": "/", "port": 80}}}},
            "run.container.livenessProbe.httpGet.paht",
            "path",
        ),
        (
            {"container": {"env": [{"name": "A", "vaule": "1"}]}},
            "run.container.env[0].vaule",
            "value",
        ),
        (
            {"volumes": [{"name": "v", "emptydir": {}}]},
            "run.volumes[0].emptydir",
            "emptyDir",
        ),
        (
            {"environment": {"tolerations": [{"key": "gpu", "efect": "NoSchedule"}]}},
            "run.environment.tolerations[0].efect",
            "effect",
        ),
        (
            {"environment": {"securityContext": {"runAsUsr": 1000}}},
            "run.environment.securityContext.runAsUsr",
            "runAsUser",
        ),
    ],
)
def test_every_kubernetes_section_is_checked_at_any_depth(
    fields: dict[str, Any], location: str, meant: str
):
    assert problems(job(**fields)) == [(location, f"unknown field; did you mean '{meant}'?")]


def test_root_shortcuts_and_replicas_are_checked_too():
    root = {"kind": "component", "container": {"image": "x", "imagePullPolcy": "Always"}}
    assert problems(root) == [
        ("container.imagePullPolcy", "unknown field; did you mean 'imagePullPolicy'?")
    ]
    tfjob = component({"kind": "tfjob", "worker": {"container": {"args": [], "tyy": True}}})
    assert problems(tfjob) == [("run.worker.container.tyy", "unknown field; did you mean 'tty'?")]


def test_a_name_far_from_any_field_lists_the_known_ones():
    [(location, message)] = problems(job(volumes=[{"name": "v", "zzz": 1}]))
    assert location == "run.volumes[0].zzz"
    assert message.startswith("unknown field (known: ")
    assert "persistentVolumeClaim" in message


def test_camel_case_and_snake_case_kubernetes_fields_are_accepted():
    container = {
        "image": "x",
        "imagePullPolicy": "Always",
        "working_dir": "/code",
        "securityContext": {"run_as_user": 1000, "capabilities": {"add": ["SYS_PTRACE"]}},
        "volumeMounts": [{"name": "data", "mountPath": "/data", "read_only": True}],
        "resources": {"cpu": "500m..1", "limits": {"nvidia.com/gpu": 1}},
    }
    pf = load(job(container=container, volumes=[{"name": "data", "emptyDir": {}}]))
    assert pf.to_dict()["run"]["container"]["securityContext"]["run_as_user"] == 1000  # type: ignore[index]


def test_camel_fields_renames_fields_at_any_depth_and_keeps_map_keys():
    container = {
        "working_dir": "/code",
        "security_context": {"run_as_user": 1000},
        "env": [{"name": "A", "value_from": {"secret_key_ref": {"name": "s", "key": "k"}}}],
        "resources": {"limits": {"nvidia.com/gpu": 1}, "cpu": "500m..1"},
        "readinessProbe": {"http_get": {"path": "/", "port": 80}},
    }
    assert camel_fields(container, "Container") == {
        "workingDir": "/code",
        "securityContext": {"runAsUser": 1000},
        "env": [{"name": "A", "valueFrom": {"secretKeyRef": {"name": "s", "key": "k"}}}],
        "resources": {"limits": {"nvidia.com/gpu": 1}, "cpu": "500m..1"},
        "readinessProbe": {"httpGet": {"path": "/", "port": 80}},
    }
    affinity = {
        "pod_affinity": {
            "required_during_scheduling_ignored_during_execution": [
                {"topology_key": "zone", "label_selector": {"match_labels": {"some_label": "x"}}}
            ]
        }
    }
    terms = camel_fields(affinity, "Affinity")["podAffinity"]
    assert terms["requiredDuringSchedulingIgnoredDuringExecution"] == [
        {"topologyKey": "zone", "labelSelector": {"matchLabels": {"some_label": "x"}}}
    ]
    tolerations = [{"key": "k", "toleration_seconds": 5}]
    assert camel_fields(tolerations, "Toleration") == [{"key": "k", "tolerationSeconds": 5}]


def test_templates_and_free_maps_are_not_field_names():
    container = {"image": "x", "resources": {"limits": {"my.org/fpga": 1}}}
    environment = {"nodeSelector": {"any-label": "x"}, "affinity": "{{ affinity }}"}
    assert problems(job(container=container, environment=environment)) == [
        ("run.environment.affinity", "expected a mapping, got '{{ affinity }}'")
    ]
    assert unknown_fields({"env": "{{ envs }}", "args": ["--x"]}, "Container") == []


def test_unknown_fields_are_reported_with_the_other_errors_of_the_container():
    container = {"image": "x", "comand": ["a"], "resources": {"limits": {"cpu": "lots"}}}
    assert sorted(problems(job(container=container))) == [
        ("run.container.comand", "unknown field; did you mean 'command'?"),
        (
            "run.container.resources.limits.cpu",
            "expected a resource quantity such as 500m or 8Gi, got 'lots'",
        ),
    ]


def test_the_committed_field_list_is_the_generators_output():
    spec = importlib.util.spec_from_file_location("k8s_fields_generator", GENERATOR)
    assert spec is not None
    assert spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    assert json.loads(COMMITTED.read_text()) == generator.fields()
