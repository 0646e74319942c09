"""Pod templates: containers, env, init steps, sidecars, volumes, environment, connections."""

import dataclasses
from typing import Any

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import Cluster, Target, build_workload
from axonal_agent.domain.kube.target import label_value, workload_name
from axonal_testing.k8s_schemas import validate_manifest

from .kube_support import CLUSTER, NAME, RUN_UUID, env_of, target


def _job(**section: Any) -> dict[str, Any]:
    run = {"kind": "job", "container": {"image": "python:3.12", "command": ["python"]}}
    run.update(section)
    job = build_workload(run, target()).primary
    validate_manifest(job)
    return job


def _pod(**section: Any) -> dict[str, Any]:
    return _job(**section)["spec"]["template"]


def _invalid(**section: Any) -> str:
    run = {"kind": "job", "container": {"image": "python:3.12", "command": ["python"]}}
    with pytest.raises(InvalidRunError) as caught:
        build_workload({**run, **section}, target())
    return str(caught.value)


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
    pod = _pod(
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
    pod = _pod(
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
    message = _invalid(
        container={"image": "x", "resources": {"requests": {"gpu": 1}, "limits": {"gpu": 2}}}
    )
    assert message.startswith("container.resources: nvidia.com/gpu cannot be overcommitted")


def test_snake_case_kubernetes_fields_are_camel_cased():
    pod = _pod(
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
    pod = _pod(container={"command": ["/bin/sh", "-c"], "args": ["set -e\necho hi"]})
    assert pod["spec"]["containers"][0]["image"] == "axonal/python:3.12"
    bare = dataclasses.replace(CLUSTER, default_image=None)
    run = {"kind": "job", "container": {"command": ["true"]}}
    with pytest.raises(InvalidRunError, match=r"^container.image: no image"):
        build_workload(run, target(cluster=bare))


def test_a_run_without_container_is_refused():
    with pytest.raises(InvalidRunError, match=r"^container: the section has no container"):
        build_workload({"kind": "job"}, target())


# -- init steps ------------------------------------------------------------------------


def _steps(*items: dict[str, Any]) -> list[dict[str, Any]]:
    return _pod(init=list(items))["spec"]["initContainers"]


def test_git_clone_with_revision_flags_and_path():
    (step,) = _steps(
        {
            "git": {
                "url": "https://github.com/acme/repo.git",
                "revision": "v2",
                "flags": ["--depth=1"],
            }
        },
    )
    assert step["name"] == "plx-init-0"
    assert step["command"][:2] == ["/bin/sh", "-c"]
    assert step["command"][3:] == [
        "plx-init-0",
        "/plx-context/artifacts/repo",
        "v2",
        "--depth=1",
        "--",
        "https://github.com/acme/repo.git",
    ]
    assert step["terminationMessagePolicy"] == "FallbackToLogsOnError"
    assert step["volumeMounts"] == [
        {"name": "plx-artifacts", "mountPath": "/plx-context/artifacts", "subPath": f"{RUN_UUID}/2"}
    ]
    (elsewhere,) = _steps({"git": {"url": "https://github.com/acme/repo.git"}, "path": "code"})
    assert elsewhere["command"][4] == "/plx-context/artifacts/code"


def test_git_from_a_connection_clones_its_url_with_its_credentials():
    (step,) = _steps({"connection": "repo"})
    assert step["command"][-1] == "https://git.example.com/acme/models.git"
    assert step["command"][4] == "/plx-context/artifacts/models"
    assert env_of(step)["GIT_TOKEN"] == {
        "secretKeyRef": {"name": "git-credentials", "key": "GIT_TOKEN"}
    }


def test_file_with_mode_and_path():
    (step,) = _steps(
        {"file": {"content": "echo hi\n", "filename": "run.sh", "chmod": "+x"}, "path": "bin"}
    )
    assert step["image"] == "busybox:1.37"
    assert step["command"][-2:] == ["/plx-context/artifacts/bin/run.sh", "a+x"]
    assert env_of(step) == {"AXONAL_INIT_CONTENT": "echo hi\n"}
    (octal,) = _steps({"file": {"content": "x", "chmod": "0o640"}})
    assert octal["command"][-2:] == ["/plx-context/artifacts/file", "640"]


def test_a_file_mode_chmod_would_not_understand_is_refused():
    message = _invalid(init=[{"file": {"content": "x", "chmod": "rwx"}}])
    assert "chmod 'rwx' is not understood" in message


def test_artifacts_and_paths_are_copied_from_the_store():
    steps = _steps(
        {"artifacts": {"files": ["data/a.csv"], "dirs": [["models/best", "model"]]}},
        {"paths": ["data/b.csv"], "path": "extra"},
    )
    assert steps[0]["command"][4:] == [
        "/plx-store/data/a.csv",
        "/plx-context/artifacts/a.csv",
        "/plx-store/models/best",
        "/plx-context/artifacts/model",
    ]
    assert steps[1]["command"][4:] == [
        "/plx-store/data/b.csv",
        "/plx-context/artifacts/extra/b.csv",
    ]
    assert steps[0]["volumeMounts"][1] == {
        "name": "plx-store",
        "mountPath": "/plx-store",
        "readOnly": True,
    }
    volumes = _pod(init=[{"paths": ["a"]}, {"paths": ["b"]}])["spec"]["volumes"]
    assert [v["name"] for v in volumes] == ["plx-artifacts", "plx-store"]
    assert volumes[1]["persistentVolumeClaim"] == {"claimName": "axonal-store", "readOnly": True}


def test_a_copy_needs_a_store_and_a_relative_source():
    no_store = dataclasses.replace(CLUSTER, store_claim=None)
    run = {"kind": "job", "container": {"image": "x"}, "init": [{"paths": ["a"]}]}
    with pytest.raises(InvalidRunError, match=r"^init\[0\]: this agent has no artifacts store"):
        build_workload(run, target(cluster=no_store))
    assert _invalid(init=[{"paths": ["/etc/passwd"]}]).startswith("init[0]: '/etc/passwd' must")
    assert _invalid(init=[{"paths": [["a", "../../x"]]}]).startswith("init[0]: '../../x' leaves")


def test_a_path_outside_the_artifacts_folder_is_refused():
    message = _invalid(init=[{"git": {"url": "https://x/y.git"}, "path": "/opt/code"}])
    assert message.startswith("init[0].path: '/opt/code' is outside /plx-context/artifacts")


def test_a_custom_init_container_and_a_container_overriding_a_step():
    steps = _steps(
        {"container": {"name": "prepare", "image": "alpine", "command": ["sh", "-c", "date"]}},
        {
            "git": {"url": "https://github.com/acme/repo.git"},
            "container": {
                "image": "my/git:1",
                "env": [{"name": "GIT_SSL_NO_VERIFY", "value": "1"}],
            },
        },
    )
    assert (steps[0]["name"], steps[0]["image"], steps[0]["command"]) == (
        "prepare",
        "alpine",
        ["sh", "-c", "date"],
    )
    assert steps[0]["volumeMounts"][0]["name"] == "plx-artifacts"
    assert (steps[1]["name"], steps[1]["image"]) == ("plx-init-1", "my/git:1")
    assert steps[1]["command"][-1] == "https://github.com/acme/repo.git"
    assert env_of(steps[1]) == {"GIT_SSL_NO_VERIFY": "1"}


@pytest.mark.parametrize(
    ("item", "start"),
    [
        ({"tensorboard": {"port": 6006}}, "init[0].tensorboard: not supported on Kubernetes"),
        ({"lineageRef": "abc"}, "init[0].lineageRef: not supported on Kubernetes"),
        ({"modelRef": "m:1"}, "init[0].modelRef: not supported on Kubernetes"),
        ({"artifactRef": "a:1"}, "init[0].artifactRef: not supported on Kubernetes"),
        ({"connection": "fixtures-store"}, "init[0].connection: pulling the s3 connection"),
        (
            {"artifacts": {"files": ["a"]}, "connection": "fixtures-store"},
            "init[0].artifacts: copying from the s3 connection 'fixtures-store'",
        ),
        ({"connection": "nope"}, "init[0].connection: unknown connection 'nope'"),
        ({"git": {"revision": "main"}}, "init[0].git: no url, and no git connection"),
    ],
)
def test_init_steps_that_cannot_be_done_name_their_field(item, start):
    assert _invalid(init=[item]).startswith(start)


# -- sidecars, volumes, connections ----------------------------------------------------


def test_sidecars_are_native_sidecars_after_the_init_steps():
    pod = _pod(
        init=[{"git": {"url": "https://x/y.git"}}],
        sidecars=[{"name": "proxy", "image": "envoy:1"}, {"image": "busybox", "command": "sleep"}],
    )
    steps = pod["spec"]["initContainers"]
    assert [(c["name"], c.get("restartPolicy")) for c in steps] == [
        ("plx-init-0", None),
        ("proxy", "Always"),
        ("plx-sidecar-1", "Always"),
    ]
    assert steps[1]["volumeMounts"][0]["mountPath"] == "/plx-context/artifacts"
    assert [c["name"] for c in pod["spec"]["containers"]] == ["main"]


def test_run_volumes_join_the_pod_and_plx_names_are_reserved():
    pod = _pod(
        volumes=[{"name": "shm", "empty_dir": {"medium": "Memory"}}],
        container={"image": "x", "volumeMounts": [{"name": "shm", "mount_path": "/dev/shm"}]},
    )
    assert pod["spec"]["volumes"][1] == {"name": "shm", "emptyDir": {"medium": "Memory"}}
    assert pod["spec"]["containers"][0]["volumeMounts"][1] == {
        "name": "shm",
        "mountPath": "/dev/shm",
    }
    message = _invalid(volumes=[{"name": "plx-artifacts", "emptyDir": {}}])
    assert message == "volumes[0].name: plx- names are reserved"


def test_connections_mount_secrets_and_config_maps_or_give_env():
    pod = _pod(connections=["data", "fixtures-store"])
    main = pod["spec"]["containers"][0]
    volumes = {v["name"]: v for v in pod["spec"]["volumes"]}
    mounts = {m["mountPath"]: m for m in main["volumeMounts"]}
    keys, config = volumes[mounts["/keys"]["name"]], volumes[mounts["/etc/data"]["name"]]
    assert keys["secret"] == {
        "secretName": "data-keys",
        "items": [{"key": "key.json", "path": "key.json"}],
    }
    assert config["configMap"] == {"name": "data-config"}
    assert mounts["/keys"]["readOnly"] is True
    assert main["envFrom"] == [{"secretRef": {"name": "store-credentials"}}]


def test_an_unknown_connection_is_named():
    message = _invalid(connections=["fixtures-store", "warehouse"])
    assert message == (
        "connections: unknown connection 'warehouse' (this agent has: data, fixtures-store, repo)"
    )


def test_an_artifacts_volume_without_a_claim_is_an_empty_dir():
    scratch = dataclasses.replace(CLUSTER, artifacts_claim=None)
    run = {"kind": "job", "container": {"image": "x"}}
    pod = build_workload(run, target(cluster=scratch)).primary["spec"]["template"]["spec"]
    assert pod["volumes"][0] == {"name": "plx-artifacts", "emptyDir": {}}
    assert pod["containers"][0]["volumeMounts"][0] == {
        "name": "plx-artifacts",
        "mountPath": "/plx-context/artifacts",
    }


# -- environment -----------------------------------------------------------------------


def test_environment_fields_become_pod_settings():
    pod = _pod(
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
