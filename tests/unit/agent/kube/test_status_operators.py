"""Status of the operators' resources: Kubeflow jobs, RayJobs, RayClusters, DaskClusters."""

from typing import Any

import pytest

from axonal_agent.domain.kube import Observation

from .status_support import RUNNING, condition_list, look, pod, stamp, terminated

# -- Kubeflow --------------------------------------------------------------------------


def kubeflow(*conditions: tuple[str, str] | tuple[str, str, str, str]) -> dict[str, Any]:
    return {"kind": "PyTorchJob", "status": {"conditions": condition_list(*conditions)}}


def test_kubeflow_created_running_succeeded():
    assert look("PyTorchJob", kubeflow(("Created", "True")), pod()) == Observation("pending")
    running = kubeflow(("Created", "True"), ("Running", "True"))
    assert look("TFJob", running, RUNNING) == Observation("running")
    done = kubeflow(("Created", "True"), ("Running", "False"), ("Succeeded", "True"))
    assert look("MPIJob", done) == Observation("succeeded", exit_code=0)


def test_kubeflow_restarting_and_suspended():
    restarting = kubeflow(
        ("Created", "True"), ("Restarting", "True", "PyTorchJobRestarting", "worker 1 restarts")
    )
    assert look("PyTorchJob", restarting) == Observation(
        "running", "Restarting", "worker 1 restarts"
    )
    assert look("PyTorchJob", kubeflow(("Suspended", "True"))).reason == "Suspended"


def test_kubeflow_failed_with_a_pod_cause_or_its_own_reason():
    failed = kubeflow(
        ("Created", "True"),
        (
            "Failed",
            "True",
            "PyTorchJobFailed",
            "PyTorchJob x is failed because 1 Worker replica(s) failed.",
        ),
    )
    oom = pod("Failed", main=terminated(137, "OOMKilled"))
    assert look("PyTorchJob", failed, RUNNING, oom) == Observation(
        "failed", "OOMKilled", "main: out of memory", 137
    )
    assert look("PyTorchJob", failed) == Observation(
        "failed", "PyTorchJobFailed", "PyTorchJob x is failed because 1 Worker replica(s) failed."
    )


def test_kubeflow_fails_with_the_replica_that_failed_not_those_deleted_after_it():
    failed = kubeflow(
        ("Created", "True"),
        ("Failed", "True", "PyTorchJobFailed", "Job x has failed because it has reached..."),
    )
    # the operator deletes the other replicas: their containers are killed (143)
    deleted = pod("Failed", main=terminated(143), metadata={"deletionTimestamp": stamp(1)})
    oom = pod("Failed", main=terminated(137, "OOMKilled"))
    assert look("PyTorchJob", failed, deleted, oom) == Observation(
        "failed", "OOMKilled", "main: out of memory", 137
    )


def test_kubeflow_fails_as_soon_as_a_replica_is_lost():
    running = kubeflow(("Created", "True"), ("Running", "True"))
    evicted = pod("Failed", reason="Evicted", message="disk pressure")
    assert look("TFJob", running, RUNNING, evicted) == Observation(
        "failed", "Evicted", "disk pressure"
    )


# -- Ray -------------------------------------------------------------------------------


def rayjob(deployment: str = "", job_status: str = "", **status: Any) -> dict[str, Any]:
    return {
        "kind": "RayJob",
        "status": {"jobDeploymentStatus": deployment, "jobStatus": job_status, **status},
    }


def test_ray_job_initializing_running_succeeded():
    assert look("RayJob", rayjob("Initializing"), pod()) == Observation("pending")
    assert look("RayJob", rayjob("Running", "PENDING"), RUNNING) == Observation("pending")
    assert look("RayJob", rayjob("Running", "RUNNING"), RUNNING) == Observation("running")
    assert look("RayJob", rayjob("Complete", "SUCCEEDED")) == Observation("succeeded", exit_code=0)


def test_ray_job_failures():
    app = rayjob("Complete", "FAILED", reason="AppFailed", message="Job entrypoint command failed")
    assert look("RayJob", app) == Observation(
        "failed", "AppFailed", "Job entrypoint command failed"
    )
    deadline = rayjob("Failed", "RUNNING", reason="DeadlineExceeded", message="past deadline")
    assert look("RayJob", deadline) == Observation("failed", "DeadlineExceeded", "past deadline")
    submit = rayjob("Failed", reason="SubmissionFailed", message="submitter failed")
    assert look("RayJob", submit) == Observation("failed", "SubmissionFailed", "submitter failed")
    assert look("RayJob", rayjob("ValidationFailed", message="bad spec")) == Observation(
        "failed", "ValidationFailed", "bad spec"
    )
    assert look("RayJob", rayjob("Complete", "STOPPED")) == Observation(
        "failed", "Stopped", "the Ray job was stopped"
    )


def _ray_pod(node_type: str, phase: str = "Running", **fields: Any) -> dict[str, Any]:
    return pod(phase, metadata={"labels": {"ray.io/node-type": node_type}}, **fields)


def test_ray_job_fails_with_its_head_but_not_with_a_worker():
    running = rayjob("Running", "RUNNING")
    head = _ray_pod("head", main={"running": {}})
    evicted_worker = _ray_pod("worker", "Failed", reason="Evicted", message="low memory")
    assert look("RayJob", running, head, evicted_worker) == Observation("running")
    # the head restarted (restartPolicy Always): without GCS fault tolerance its job is gone
    crashed = _ray_pod("head", main={"running": {}}, last=terminated(137, "OOMKilled"))
    assert look("RayJob", running, crashed) == Observation(
        "failed", "OOMKilled", "main: out of memory", 137
    )
    evicted = _ray_pod("head", "Failed", reason="Evicted", message="low memory")
    assert look("RayJob", running, evicted, _ray_pod("head", "Pending")) == Observation(
        "failed", "Evicted", "low memory"
    )


def test_ray_job_suspended_and_a_head_that_cannot_pull_its_image():
    assert look("RayJob", rayjob("Suspended")).reason == "Suspended"
    stuck = pod(
        main={"waiting": {"reason": "ImagePullBackOff", "message": "no such image"}}, age=900
    )
    assert look("RayJob", rayjob("Initializing"), stuck) == Observation(
        "failed", "ImagePullBackOff", "main: no such image"
    )


def test_ray_cluster_states():
    def cluster(**status: Any) -> dict[str, Any]:
        return {"kind": "RayCluster", "status": status}

    assert look("RayCluster", cluster(), pod()) == Observation("pending")
    assert look("RayCluster", cluster(state="ready")) == Observation("running")
    head_ready = cluster(conditions=condition_list(("HeadPodReady", "True")))
    assert look("RayCluster", head_ready) == Observation("running")
    assert look("RayCluster", cluster(state="suspended")).reason == "Suspended"
    assert look("RayCluster", cluster(state="failed", reason="RayConfigError", message="x")) == (
        Observation("failed", "RayConfigError", "x")
    )
    quota = cluster(
        conditions=condition_list(("ReplicaFailure", "True", "FailedCreateWorkerPod", "quota"))
    )
    assert look("RayCluster", quota) == Observation("pending", "FailedCreateWorkerPod", "quota")


# -- Dask ------------------------------------------------------------------------------


def test_dask_cluster_phases():
    def cluster(phase: str) -> dict[str, Any]:
        return {"kind": "DaskCluster", "status": {"phase": phase}}

    assert look("DaskCluster", cluster("Created")) == Observation("pending")
    unschedulable = pod(
        conditions=condition_list(("PodScheduled", "False", "Unschedulable", "no nodes"))
    )
    assert look("DaskCluster", cluster("Running"), unschedulable) == Observation(
        "pending", "Unschedulable", "no nodes"
    )
    assert look("DaskCluster", cluster("Running"), RUNNING) == Observation("running")
    assert look("DaskCluster", cluster("Error")).phase == "failed"


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="no observer for StatefulSet"):
        look("StatefulSet", {})
