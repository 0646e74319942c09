"""Pod templates: containers, env, init steps, sidecars, volumes, environment, connections."""

import dataclasses

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import Cluster, Target, build_workload
from axonal_agent.domain.kube.target import label_value, workload_name
from axonal_testing.k8s_schemas import validate_manifest

from .kube_support import CLUSTER, NAME, RUN_UUID, env_of, pod_of, refusal, target

# -- names, labels, target -------------------------------------------------------------


def test_the_name_is_the_whole_uuid_and_the_attempt():
    assert workload_name(RUN_UUID, 2) == NAME
    assert workload_name("01234567-89ab-cdef-0123-456789abcdef", 13) == f"plx-{RUN_UUID}-13"
    assert len(workload_name(RUN_UUID, 10**9)) == 47
    with pytest.raises(ValueError, match="attempt"):
        workload_name(RUN_UUID, 10**10)
    with pytest.raises(ValueError, match="hexadecimal"):
        workload_name("not-a-uuid", 1)


def test_labels_of_the_attempt():
    labels = target(agent="gpu agent #1", project="Vision/Team").labels
    assert labels == {
        "app.kubernetes.io/managed-by": "axonal",
        "app.kubernetes.io/part-of": "axonal",
        "axonal.dev/run-uuid": RUN_UUID,
        "axonal.dev/attempt": "2",
        "axonal.dev/agent": "gpu-agent--1",
        "axonal.dev/project": "Vision-Team",
    }
    assert label_value("-x" * 40) == "x-" * 30 + "x"
    assert label_value("///") == ""


def test_a_sensitive_variable_is_refused_in_the_plain_env():
    with pytest.raises(ValueError, match="AXONAL_API_TOKEN must come from the run's Secret"):
        target(env={"AXONAL_API_TOKEN": "secret"})


def test_without_a_secret_no_variable_refers_to_one():
    run = {"kind": "job", "container": {"image": "x", "command": ["true"]}}
    job = build_workload(run, target(secret=None)).primary
    main = job["spec"]["template"]["spec"]["containers"][0]
    assert "AXONAL_API_TOKEN" not in env_of(main)
    assert "secretKeyRef" not in str(main)


# -- the main container ----------------------------------------------------------------


def test_env_precedence_secret_then_context_then_connections_then_the_container():
    pod = pod_of(
        container={
            "image": "x",
            "command": "echo",
            "env": [
                {"name": "AXONAL_RUN_UUID", "value": "mine"},
                {"name": "AWS_REGION", "value": "us-east-1"},
                {"name": "DEPTH", "value": 3},
            ],
        },
        connections=["fixtures-store"],
    )
    main = pod["spec"]["containers"][0]
    assert [e["name"] for e in main["env"]] == [
        "AXONAL_API_TOKEN",
        "AXONAL_NATS_URL",
        "AXONAL_RUN_UUID",
        "AXONAL_PROJECT",
        "AWS_REGION",
        "DEPTH",
    ]
    env = env_of(main)
    assert (env["AXONAL_RUN_UUID"], env["AWS_REGION"], env["DEPTH"]) == (RUN_UUID, "eu-west-1", "3")
    assert main["command"] == ["echo"]
    assert main["terminationMessagePolicy"] == "FallbackToLogsOnError"


def test_resources_per_resource_form_gpu_and_numbers_become_quantities():
    pod = pod_of(
        container={
            "image": "x",
            "resources": {"cpu": "500m..2", "gpu": 1, "limits": {"memory": "1Gi"}},
        }
    )
    assert pod["spec"]["containers"][0]["resources"] == {
        "requests": {"cpu": "500m", "nvidia.com/gpu": "1"},
        "limits": {"memory": "1Gi", "cpu": "2", "nvidia.com/gpu": "1"},
    }


def test_a_gpu_request_different_from_its_limit_is_refused():
    message = refusal(
        container={"image": "x", "resources": {"requests": {"gpu": 1}, "limits": {"gpu": 2}}}
    )
    assert message.startswith("container.resources: nvidia.com/gpu cannot be overcommitted")


def test_snake_case_kubernetes_fields_are_camel_cased():
    pod = pod_of(
        container={
            "image": "x",
            "readiness_probe": {"http_get": {"path": "/", "port": 80}},
            "security_context": {"run_as_user": 1000},
        }
    )
    main = pod["spec"]["containers"][0]
    assert main["readinessProbe"] == {"httpGet": {"path": "/", "port": 80}}
    assert main["securityContext"] == {"runAsUser": 1000}


def test_a_container_without_image_takes_the_cluster_default_or_is_refused():
    pod = pod_of(container={"command": ["/bin/sh", "-c"], "args": ["set -e\necho hi"]})
    assert pod["spec"]["containers"][0]["image"] == "axonal/python:3.12"
    bare = dataclasses.replace(CLUSTER, default_image=None)
    run = {"kind": "job", "container": {"command": ["true"]}}
    with pytest.raises(InvalidRunError, match=r"^container.image: no image"):
        build_workload(run, target(cluster=bare))


def test_a_run_without_container_is_refused():
    with pytest.raises(InvalidRunError, match=r"^container: the section has no container"):
        build_workload({"kind": "job"}, target())


# -- environment -----------------------------------------------------------------------


def test_environment_fields_become_pod_settings():
    pod = pod_of(
        environment={
            "labels": {"team": "vision", "axonal.dev/attempt": "9"},
            "annotations": {"note": "x"},
            "nodeSelector": {"gpu": "a100"},
            "affinity": {
                "node_affinity": {
                    "required_during_scheduling_ignored_during_execution": {
                        "node_selector_terms": [
                            {
                                "match_expressions": [
                                    {"key": "zone", "operator": "In", "values": ["a"]}
                                ]
                            }
                        ]
                    }
                }
            },
            "tolerations": [{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}],
            "serviceAccountName": "trainer",
            "imagePullSecrets": ["private", "registry"],
            "hostAliases": [{"ip": "10.0.0.1", "hostnames": ["db"]}],
            "securityContext": {"run_as_non_root": True},
            "dnsPolicy": "ClusterFirst",
            "schedulerName": "volcano",
            "priorityClassName": "high",
            "priority": 1000,
            "hostNetwork": False,
            "restartPolicy": "Never",
        }
    )
    spec = pod["spec"]
    assert pod["metadata"]["labels"]["team"] == "vision"
    assert pod["metadata"]["labels"]["axonal.dev/attempt"] == "2"
    assert pod["metadata"]["annotations"] == {"note": "x"}
    assert spec["nodeSelector"] == {"pool": "runs", "gpu": "a100"}
    terms = spec["affinity"]["nodeAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]
    assert terms["nodeSelectorTerms"][0]["matchExpressions"][0]["key"] == "zone"
    assert spec["tolerations"] == [{"key": "gpu", "operator": "Exists", "effect": "NoSchedule"}]
    assert spec["serviceAccountName"] == "trainer"
    assert spec["imagePullSecrets"] == [{"name": "registry"}, {"name": "private"}]
    assert spec["hostAliases"] == [{"ip": "10.0.0.1", "hostnames": ["db"]}]
    assert spec["securityContext"] == {"runAsNonRoot": True}
    assert (spec["dnsPolicy"], spec["schedulerName"]) == ("ClusterFirst", "volcano")
    assert (spec["priorityClassName"], spec["priority"], spec["hostNetwork"]) == (
        "high",
        1000,
        False,
    )
    assert spec["restartPolicy"] == "Never"


def test_a_restart_policy_a_job_cannot_take_is_replaced_with_a_note():
    run = {
        "kind": "job",
        "container": {"image": "x"},
        "environment": {"restartPolicy": "OnFailure"},
    }
    workload = build_workload(run, target())
    assert workload.primary["spec"]["template"]["spec"]["restartPolicy"] == "Never"
    assert workload.notes == (
        "environment.restartPolicy: OnFailure replaced by Never "
        "(retries are the scheduler's: termination.maxRetries)",
    )


def test_exit_code_restart_policy_outside_kubeflow_is_refused():
    run = {
        "kind": "raycluster",
        "head": {"container": {"image": "ray"}, "environment": {"restartPolicy": "ExitCode"}},
    }
    with pytest.raises(InvalidRunError, match=r"^head\.environment\.restartPolicy: 'ExitCode'"):
        build_workload(run, target())


def test_cluster_defaults_without_environment():
    plain = Cluster(namespace="runs")
    t = Target(plain, RUN_UUID, 1, "agent", "p")
    pod = build_workload({"kind": "job", "container": {"image": "x"}}, t).primary
    spec = pod["spec"]["template"]["spec"]
    assert "serviceAccountName" not in spec
    assert "imagePullSecrets" not in spec
    assert "nodeSelector" not in spec
    assert "activeDeadlineSeconds" not in pod["spec"]
    validate_manifest(pod)
