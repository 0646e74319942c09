"""Custom resources: the training operator's jobs, KubeRay's RayJob and the Dask operator's
DaskJob, through CustomObjectsApi, with pods labelled as their operators label them."""

from __future__ import annotations

import asyncio

from kubernetes_asyncio import watch
from kubernetes_asyncio.client import ApiClient, CoreV1Api, CustomObjectsApi

from axonal_testing.kube.double import KubeDouble

from .conftest import NS

TEMPLATE = {"spec": {"containers": [{"name": "pytorch", "image": "trainer:1"}]}}


def _conditions(obj: dict) -> dict[str, dict]:
    return {c["type"]: c for c in obj["status"].get("conditions", [])}


async def _follow(api: ApiClient, pod: str, container: str) -> list[str]:
    async with watch.Watch() as w:
        stream = w.stream(CoreV1Api(api).read_namespaced_pod_log, pod, NS, container=container)
        return [line.rstrip("\n") async for line in stream]


async def test_a_pytorch_job_is_created_runs_and_succeeds(api: ApiClient, kube_double: KubeDouble):
    custom = CustomObjectsApi(api)
    body = {
        "apiVersion": "kubeflow.org/v1",
        "kind": "PyTorchJob",
        "metadata": {"name": "train"},
        "spec": {
            "pytorchReplicaSpecs": {
                "Master": {"replicas": 1, "template": TEMPLATE},
                "Worker": {"replicas": 2, "template": TEMPLATE},
            }
        },
    }
    created = await custom.create_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "pytorchjobs", body
    )
    pods = await CoreV1Api(api).list_namespaced_pod(
        NS, label_selector="training.kubeflow.org/job-name=train"
    )

    assert created["metadata"]["uid"]
    names = sorted(p.metadata.name for p in pods.items)
    assert names == ["train-master-0", "train-worker-0", "train-worker-1"]
    master = next(p for p in pods.items if p.metadata.name == "train-master-0")
    assert master.metadata.labels["training.kubeflow.org/replica-type"] == "master"
    assert master.metadata.labels["training.kubeflow.org/replica-index"] == "0"
    assert master.metadata.labels["training.kubeflow.org/job-role"] == "master"
    got = await custom.get_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "pytorchjobs", "train"
    )
    assert _conditions(got)["Created"]["reason"] == "PyTorchJobCreated"

    kube_double.operators.training("pytorchjobs", NS, "train", "Running")
    kube_double.log(NS, "train-master-0", "loss=0.5")
    logs = asyncio.create_task(_follow(api, "train-master-0", "pytorch"))
    await asyncio.sleep(0.1)
    running = await custom.get_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "pytorchjobs", "train"
    )
    kube_double.log(NS, "train-master-0", "loss=0.1")
    kube_double.operators.training("pytorchjobs", NS, "train", "Succeeded")
    done = await custom.get_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "pytorchjobs", "train"
    )

    assert _conditions(running)["Running"]["status"] == "True"
    assert running["status"]["replicaStatuses"] == {
        "Master": {"active": 1},
        "Worker": {"active": 2},
    }
    assert _conditions(done)["Succeeded"]["reason"] == "PyTorchJobSucceeded"
    assert _conditions(done)["Running"]["status"] == "False"
    assert await asyncio.wait_for(logs, 3) == ["loss=0.5", "loss=0.1"]
    assert {
        p["status"]["phase"] for p in kube_double.pods(NS, "training.kubeflow.org/job-name=train")
    } == {"Succeeded"}


async def test_a_failed_replica_fails_its_pytorch_job(api: ApiClient, kube_double: KubeDouble):
    custom = CustomObjectsApi(api)
    replica = {"restartPolicy": "Never", "template": TEMPLATE}
    body = {
        "metadata": {"name": "train"},
        "spec": {
            "runPolicy": {"backoffLimit": 0, "cleanPodPolicy": "Running"},
            "pytorchReplicaSpecs": {
                "Master": {"replicas": 1, **replica},
                "Worker": {"replicas": 1, **replica},
            },
        },
    }
    await custom.create_namespaced_custom_object("kubeflow.org", "v1", NS, "pytorchjobs", body)
    kube_double.operators.training("pytorchjobs", NS, "train", "Running")
    [master] = kube_double.pods(NS, "training.kubeflow.org/job-role=master")

    kube_double.kubelet.terminate(NS, "train-master-0", 137, "OOMKilled")
    got = await custom.get_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "pytorchjobs", "train"
    )

    assert master["spec"]["restartPolicy"] == "Never"  # the replica spec's
    failed = _conditions(got)["Failed"]
    assert (failed["reason"], failed["message"]) == (
        "PyTorchJobFailed",
        "Job train has failed because it has reached the specified backoff limit",
    )
    assert _conditions(got)["Running"]["status"] == "False"
    # past the backoff limit every pod goes, the failed one too (cleanPodPolicy or not)
    assert kube_double.pods(NS, "training.kubeflow.org/job-name=train") == []


async def test_a_failed_replica_without_a_backoff_limit_keeps_its_pod(
    api: ApiClient, kube_double: KubeDouble
):
    custom = CustomObjectsApi(api)
    body = {
        "metadata": {"name": "train"},
        "spec": {
            "tfReplicaSpecs": {"Worker": {"replicas": 2, "template": TEMPLATE}},
        },
    }
    await custom.create_namespaced_custom_object("kubeflow.org", "v1", NS, "tfjobs", body)
    kube_double.operators.training("tfjobs", NS, "train", "Running")

    kube_double.kubelet.evict(NS, "train-worker-1")
    got = await custom.get_namespaced_custom_object("kubeflow.org", "v1", NS, "tfjobs", "train")

    assert _conditions(got)["Failed"]["message"] == (
        "TFJob train is failed because 1 Worker replica(s) failed."
    )
    [kept] = kube_double.pods(NS, "training.kubeflow.org/job-name=train")
    assert (kept["metadata"]["name"], kept["status"]["reason"]) == ("train-worker-1", "Evicted")


async def test_a_ray_job_gets_a_cluster_its_pods_and_a_submitter(
    api: ApiClient, kube_double: KubeDouble
):
    custom = CustomObjectsApi(api)
    head = {
        "template": {"spec": {"containers": [{"name": "ray-head", "image": "rayproject/ray:2"}]}}
    }
    worker = {"groupName": "gpu", "replicas": 2, **head}
    body = {
        "apiVersion": "ray.io/v1",
        "kind": "RayJob",
        "metadata": {"name": "tune"},
        "spec": {
            "entrypoint": "python tune.py",
            "rayClusterSpec": {"headGroupSpec": head, "workerGroupSpecs": [worker]},
        },
    }
    await custom.create_namespaced_custom_object("ray.io", "v1", NS, "rayjobs", body)
    job = await custom.get_namespaced_custom_object("ray.io", "v1", NS, "rayjobs", "tune")
    cluster = job["status"]["rayClusterName"]

    assert job["status"]["jobDeploymentStatus"] == "Initializing"
    assert cluster.startswith("tune-raycluster-")
    assert len(kube_double.pods(NS, f"ray.io/cluster={cluster},ray.io/node-type=head")) == 1
    workers = kube_double.pods(NS, f"ray.io/cluster={cluster},ray.io/node-type=worker")
    assert [p["metadata"]["labels"]["ray.io/group"] for p in workers] == ["gpu", "gpu"]

    kube_double.operators.ray_job(NS, "tune", "Running")
    [submitter] = kube_double.pods(NS, "job-name=tune")
    kube_double.log(NS, submitter["metadata"]["name"], "trial 1 done")
    kube_double.operators.ray_job(NS, "tune", "Complete")
    done = await custom.get_namespaced_custom_object("ray.io", "v1", NS, "rayjobs", "tune")

    assert (done["status"]["jobDeploymentStatus"], done["status"]["jobStatus"]) == (
        "Complete",
        "SUCCEEDED",
    )
    assert await _follow(api, submitter["metadata"]["name"], "ray-job-submitter") == [
        "trial 1 done"
    ]


async def test_kuberay_replaces_a_head_pod_that_ended(api: ApiClient, kube_double: KubeDouble):
    custom = CustomObjectsApi(api)
    head = {
        "template": {"spec": {"containers": [{"name": "ray-head", "image": "rayproject/ray:2"}]}}
    }
    body = {
        "metadata": {"name": "serve"},
        "spec": {"headGroupSpec": head, "workerGroupSpecs": []},
    }
    await custom.create_namespaced_custom_object("ray.io", "v1", NS, "rayclusters", body)
    [first] = kube_double.pods(NS, "ray.io/node-type=head")
    name = first["metadata"]["name"]
    kube_double.kubelet.schedule(NS, name)
    kube_double.kubelet.start(NS, name)

    kube_double.kubelet.terminate(NS, name, 137, "OOMKilled")  # restartPolicy Always
    [restarted] = kube_double.pods(NS, "ray.io/node-type=head")
    kube_double.kubelet.evict(NS, name)
    [replacement] = kube_double.pods(NS, "ray.io/node-type=head")

    assert restarted["metadata"]["name"] == name
    assert restarted["status"]["containerStatuses"][0]["restartCount"] == 1
    assert replacement["metadata"]["name"] != name
    assert replacement["metadata"]["name"].startswith("serve-head-")
    assert replacement["status"]["phase"] == "Pending"


async def test_a_dask_job_moves_through_its_job_statuses(api: ApiClient, kube_double: KubeDouble):
    custom = CustomObjectsApi(api)
    pod = {"spec": {"containers": [{"name": "job", "image": "dask:1"}]}}
    # the runner's pod is the job's spec as it is: one that restarts (Always, the default)
    # would be restarted by the kubelet after it exits
    runner_pod = {"spec": {**pod["spec"], "restartPolicy": "Never"}}
    body = {
        "apiVersion": "kubernetes.dask.org/v1",
        "kind": "DaskJob",
        "metadata": {"name": "etl"},
        "spec": {
            "job": runner_pod,
            "cluster": {"spec": {"scheduler": pod, "worker": {"replicas": 2, **pod}}},
        },
    }
    await custom.create_namespaced_custom_object("kubernetes.dask.org", "v1", NS, "daskjobs", body)
    statuses = []
    for status in ("ClusterCreated", "Running", "Successful"):
        kube_double.operators.dask_job(NS, "etl", status)
        got = await custom.get_namespaced_custom_object(
            "kubernetes.dask.org", "v1", NS, "daskjobs", "etl"
        )
        statuses.append(got["status"]["jobStatus"])

    assert statuses == ["ClusterCreated", "Running", "Successful"]
    [runner] = kube_double.pods(NS, "dask.org/cluster-name=etl,dask.org/component=job-runner")
    assert runner["metadata"]["name"] == "etl-runner"
    assert runner["status"]["phase"] == "Succeeded"
    assert len(kube_double.pods(NS, "dask.org/component=worker")) == 2
    listing = await custom.list_namespaced_custom_object(
        "kubernetes.dask.org", "v1", NS, "daskclusters"
    )
    assert [(c["metadata"]["name"], c["status"]["phase"]) for c in listing["items"]] == [
        ("etl", "Running")
    ]


async def test_deleting_a_custom_resource_collects_its_pods(
    api: ApiClient, kube_double: KubeDouble
):
    custom = CustomObjectsApi(api)
    body = {
        "metadata": {"name": "train"},
        "spec": {"tfReplicaSpecs": {"Worker": {"replicas": 2, "template": TEMPLATE}}},
    }
    await custom.create_namespaced_custom_object("kubeflow.org", "v1", NS, "tfjobs", body)

    await custom.delete_namespaced_custom_object(
        "kubeflow.org", "v1", NS, "tfjobs", "train", propagation_policy="Background"
    )

    assert kube_double.pods(NS, "training.kubeflow.org/job-name=train") == []
