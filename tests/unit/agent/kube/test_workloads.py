"""Workloads of each kind beyond the fixtures: services, Kubeflow, Ray and Dask options."""

import json
from typing import Any

import pytest

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube import Workload, build_workload
from axonal_testing.k8s_schemas import validate_manifest

from .kube_support import NAME, target

IMAGE = {"image": "axonal/train:1", "command": ["python", "train.py"]}


def _build(run: dict[str, Any], **changes: Any) -> Workload:
    workload = build_workload(run, target(**changes))
    for obj in workload.objects:
        validate_manifest(obj)
    return workload


def _invalid(run: dict[str, Any]) -> str:
    with pytest.raises(InvalidRunError) as caught:
        build_workload(run, target())
    return str(caught.value)


@pytest.mark.parametrize(
    ("kind", "start"),
    [
        ("dag", "kind: a dag runs its operations"),
        ("matrix", "kind: 'matrix' cannot run on Kubernetes"),
        (None, "kind: None cannot run on Kubernetes"),
    ],
)
def test_kinds_without_a_builder_are_refused(kind, start):
    assert _invalid({"kind": kind}).startswith(start)


def test_internal_job_kinds_are_jobs():
    workload = _build({"kind": "tuner", "container": IMAGE})
    assert workload.kind.kind == "Job"
    assert (workload.kind.group, workload.kind.version, workload.kind.plural) == (
        "batch",
        "v1",
        "jobs",
    )


def test_a_job_without_timeout_has_no_deadline_nor_ttl_when_unset():
    workload = build_workload({"kind": "job", "container": IMAGE}, target(timeout_seconds=None))
    assert "activeDeadlineSeconds" not in workload.primary["spec"]
    assert not workload.enforces_timeout


# -- services --------------------------------------------------------------------------


def _service(**section: Any) -> dict[str, Any]:
    return {"kind": "service", "ports": [8080], "container": IMAGE, **section}


def test_service_replicas_external_and_an_http_probe():
    workload = _build(
        _service(replicas=3, isExternal=True, ports=[8080, 9090]),
        probe={"http": {"path": "healthz", "port": 9090}},
    )
    deployment, service = workload.objects
    assert deployment["spec"]["replicas"] == 3
    assert service["spec"]["type"] == "LoadBalancer"
    assert [p["port"] for p in service["spec"]["ports"]] == [8080, 9090]
    main = deployment["spec"]["template"]["spec"]["containers"][0]
    assert main["readinessProbe"]["httpGet"] == {"path": "/healthz", "port": 9090}
    assert workload.endpoints == {
        "8080": f"http://{NAME}.axonal-runs.svc:8080/",
        "9090": f"http://{NAME}.axonal-runs.svc:9090/",
    }


def test_a_service_keeps_its_own_readiness_probe_or_takes_a_command():
    own = {"exec": {"command": ["check"]}, "periodSeconds": 1}
    workload = _build(_service(container={**IMAGE, "readinessProbe": own}))
    main = workload.primary["spec"]["template"]["spec"]["containers"][0]
    assert main["readinessProbe"] == own
    workload = _build(_service(), probe={"exec": {"command": ["curl", "-f", "localhost"]}})
    main = workload.primary["spec"]["template"]["spec"]["containers"][0]
    assert main["readinessProbe"] == {"exec": {"command": ["curl", "-f", "localhost"]}}


def test_a_service_needs_ports_its_probe_among_them_and_replicas():
    assert _invalid(_service(ports=[])) == "ports: a service needs at least one port"
    message = _invalid(_service(replicas=0))
    assert message == "replicas: expected a whole number of at least 1: 0"
    with pytest.raises(InvalidRunError, match=r"termination\.probe\.http\.port: 81 is not a port"):
        build_workload(_service(), target(probe={"http": {"port": 81}}))


def test_a_service_pod_restarts_always():
    workload = _build(_service(environment={"restartPolicy": "Never"}))
    spec = workload.primary["spec"]["template"]["spec"]
    assert spec["restartPolicy"] == "Always"
    assert workload.notes == (
        "environment.restartPolicy: Never replaced by Always (its pods belong to a Deployment)",
    )


# -- Kubeflow --------------------------------------------------------------------------


def test_pytorch_elastic_policy_nproc_scheduling_and_clean_policy():
    run = {
        "kind": "pytorchjob",
        "cleanPodPolicy": "All",
        "schedulingPolicy": {"minAvailable": 3, "queue": "gpu", "minResources": {"cpu": 4}},
        "elasticPolicy": {
            "minReplicas": 1,
            "maxReplicas": 4,
            "rdvzBackend": "c10d",
            "rdvzPort": 29400,
            "maxRestarts": 3,
            "Metrics": [
                {
                    "type": "Resource",
                    "resource": {
                        "name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": 80},
                    },
                }
            ],
        },
        "nProcPerNode": 2,
        "master": {"container": IMAGE},
        "worker": {"replicas": 3, "container": IMAGE},
    }
    spec = _build(run).primary["spec"]
    assert spec["runPolicy"]["cleanPodPolicy"] == "All"
    assert spec["runPolicy"]["schedulingPolicy"] == {
        "minAvailable": 3,
        "queue": "gpu",
        "minResources": {"cpu": "4"},
    }
    assert spec["elasticPolicy"]["rdzvBackend"] == "c10d"
    assert spec["elasticPolicy"]["rdzvPort"] == 29400
    assert spec["elasticPolicy"]["metrics"][0]["type"] == "Resource"
    assert spec["nprocPerNode"] == "2"
    assert spec["pytorchReplicaSpecs"]["Worker"]["replicas"] == 3


@pytest.mark.parametrize(
    ("run", "message"),
    [
        (
            {"kind": "pytorchjob", "master": {"replicas": 2, "container": IMAGE}},
            "master.replicas: there is one master, not 2",
        ),
        (
            {"kind": "mpijob", "launcher": {"replicas": 2, "container": IMAGE}},
            "launcher.replicas: there is one launcher, not 2",
        ),
        (
            {"kind": "tfjob"},
            "TFJob without replicas: set one of chief, ps, worker, evaluator",
        ),
        (
            {
                "kind": "pytorchjob",
                "elasticPolicy": {"maxReplicas": 2},
                "master": {"container": IMAGE},
            },
            "elasticPolicy: an elastic PyTorch job needs workers",
        ),
        (
            {
                "kind": "pytorchjob",
                "nProcPerNode": 2,
                "elasticPolicy": {"nProcPerNode": 2},
                "worker": {"container": IMAGE},
            },
            "elasticPolicy.nProcPerNode: set nProcPerNode once, outside the elastic policy",
        ),
        (
            {"kind": "tfjob", "worker": {"replicas": "many", "container": IMAGE}},
            "worker.replicas: expected a whole number of at least 1: 'many'",
        ),
        (
            {"kind": "tfjob", "worker": {"container": {"command": ["x"]}}, "chief": {}},
            "chief.container: the section has no container",
        ),
    ],
)
def test_kubeflow_admission_rules_are_checked_here(run, message):
    assert _invalid(run) == message


def test_tf_success_policy_dynamic_workers_and_an_exit_code_policy_replaced():
    run = {
        "kind": "tfjob",
        "successPolicy": "AllWorkers",
        "enableDynamicWorker": True,
        "ps": {"replicas": 2, "container": IMAGE},
        "worker": {"replicas": 4, "container": IMAGE, "environment": {"restartPolicy": "ExitCode"}},
        "evaluator": {"container": IMAGE},
    }
    workload = _build(run)
    spec = workload.primary["spec"]
    assert (spec["successPolicy"], spec["enableDynamicWorker"]) == ("AllWorkers", True)
    assert sorted(spec["tfReplicaSpecs"]) == ["Evaluator", "PS", "Worker"]
    worker = spec["tfReplicaSpecs"]["Worker"]
    assert (worker["restartPolicy"], worker["template"]["spec"]["restartPolicy"]) == (
        "Never",
        "Never",
    )
    assert workload.notes == (
        "worker.environment.restartPolicy: ExitCode replaced by Never "
        "(retries are the scheduler's: termination.maxRetries)",
    )


# -- Ray -------------------------------------------------------------------------------


def test_ray_job_runtime_env_metadata_and_start_params():
    run = {
        "kind": "raycluster",
        "entrypoint": "python main.py",
        "runtimeEnv": {"pip": ["requests"], "env_vars": {"A": "1"}},
        "metadata": {"owner": "vision", "trial": 3},
        "enableInTreeAutoscaling": True,
        "head": {"container": IMAGE, "rayStartParams": {"num-cpus": 0, "block": True}},
        "workers": {
            "cpu": {"replicas": 2, "container": IMAGE},
            "gpu": {"minReplicas": 0, "maxReplicas": 4, "replicas": 0, "container": IMAGE},
        },
    }
    spec = _build(run).primary["spec"]
    assert json.loads(spec["runtimeEnvYAML"]) == run["runtimeEnv"]
    assert spec["metadata"] == {"owner": "vision", "trial": "3"}
    assert spec["backoffLimit"] == 0
    assert spec["ttlSecondsAfterFinished"] == 600
    cluster = spec["rayClusterSpec"]
    assert cluster["enableInTreeAutoscaling"] is True
    assert cluster["headGroupSpec"]["rayStartParams"] == {"num-cpus": "0", "block": "true"}
    groups = {g["groupName"]: g for g in cluster["workerGroupSpecs"]}
    assert (groups["cpu"]["minReplicas"], groups["cpu"]["maxReplicas"]) == (2, 2)
    assert (groups["gpu"]["replicas"], groups["gpu"]["maxReplicas"]) == (0, 4)
    assert groups["gpu"]["template"]["spec"]["containers"][0]["name"] == "ray-worker"


def test_ray_without_entrypoint_is_a_ray_cluster_and_notes_what_it_ignores():
    run = {
        "kind": "raycluster",
        "runtimeEnv": {"pip": ["x"]},
        "head": {"container": IMAGE},
        "workers": {"default": {"container": IMAGE}},
    }
    workload = _build(run)
    assert (workload.kind.kind, workload.primary["kind"]) == ("RayCluster", "RayCluster")
    assert "entrypoint" not in workload.primary["spec"]
    assert (
        workload.primary["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]["name"]
        == "ray-head"
    )
    assert workload.notes == (
        "runtimeEnv: ignored, a Ray cluster without an entrypoint has no job to give it to",
    )
    assert not workload.enforces_timeout


@pytest.mark.parametrize(
    ("run", "message"),
    [
        ({"kind": "raycluster", "entrypoint": "x"}, "head: a Ray cluster needs a head"),
        (
            {"kind": "raycluster", "head": {"replicas": 2, "container": IMAGE}},
            "head.replicas: a Ray cluster has one head",
        ),
        (
            {
                "kind": "raycluster",
                "head": {"container": IMAGE},
                "workers": {"GPU_pool": {"container": IMAGE}},
            },
            "workers.GPU_pool: a worker group name must be a DNS-1123 label",
        ),
        (
            {
                "kind": "raycluster",
                "head": {"container": IMAGE},
                "workers": {"w": {"replicas": 5, "maxReplicas": 3, "container": IMAGE}},
            },
            "workers.w: replicas (5) must be between minReplicas (5) and maxReplicas (3)",
        ),
    ],
)
def test_ray_shapes_it_cannot_run(run, message):
    assert _invalid(run) == message


# -- Dask ------------------------------------------------------------------------------


def test_dask_autoscaler_and_default_scheduler_ports():
    run = {
        "kind": "daskcluster",
        "minReplicas": 1,
        "maxReplicas": 10,
        "scheduler": {"container": {"image": "dask:1", "args": ["dask-scheduler"]}},
        "worker": {"replicas": 2, "container": {"image": "dask:1", "args": ["dask-worker"]}},
    }
    workload = _build(run)
    cluster, autoscaler = workload.objects
    assert autoscaler["kind"] == "DaskAutoscaler"
    assert autoscaler["spec"] == {"cluster": NAME, "minimum": 1, "maximum": 10}
    scheduler = cluster["spec"]["scheduler"]
    assert [p["containerPort"] for p in scheduler["spec"]["containers"][0]["ports"]] == [8786, 8787]
    assert [p["targetPort"] for p in scheduler["service"]["ports"]] == [
        "tcp-comm",
        "http-dashboard",
    ]
    assert not workload.enforces_timeout


@pytest.mark.parametrize(
    ("run", "message"),
    [
        (
            {"kind": "daskcluster", "worker": {"container": IMAGE}},
            "scheduler: a Dask cluster needs a scheduler",
        ),
        (
            {
                "kind": "daskcluster",
                "scheduler": {"container": IMAGE, "replicas": 2},
                "worker": {"container": IMAGE},
            },
            "scheduler.replicas: a Dask cluster has one scheduler",
        ),
        (
            {
                "kind": "daskcluster",
                "minReplicas": 4,
                "maxReplicas": 2,
                "scheduler": {"container": IMAGE},
                "worker": {"container": IMAGE},
            },
            "minReplicas (4) is more than maxReplicas (2)",
        ),
    ],
)
def test_dask_shapes_it_cannot_run(run, message):
    assert _invalid(run) == message
