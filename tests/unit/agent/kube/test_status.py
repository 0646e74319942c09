"""What Kubernetes reports, mapped back to how an attempt is doing."""

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from axonal_agent.domain.kube import Observation, observe

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def _stamp(seconds_ago: float) -> str:
    return (NOW - timedelta(seconds=seconds_ago)).strftime("%Y-%m-%dT%H:%M:%SZ")


def _conditions(*items: tuple[str, str] | tuple[str, str, str, str]) -> list[dict[str, Any]]:
    found = []
    for item in items:
        kind, status, *rest = item
        condition = {"type": kind, "status": status}
        if rest:
            condition |= {"reason": rest[0], "message": rest[1]}
        found.append(condition)
    return found


def pod(
    phase: str = "Pending",
    *,
    main: dict[str, Any] | None = None,
    last: dict[str, Any] | None = None,
    init: list[dict[str, Any]] | None = None,
    conditions: list[dict[str, Any]] | None = None,
    age: float = 10,
    memory: str | None = None,
    sidecar: bool = False,
    **status: Any,
) -> dict[str, Any]:
    """A pod of the attempt: ``main`` is the main container's state."""
    container: dict[str, Any] = {"name": "main", "image": "x"}
    if memory:
        container["resources"] = {"limits": {"memory": memory}}
    spec: dict[str, Any] = {"containers": [container]}
    if sidecar:
        spec["initContainers"] = [{"name": "proxy", "image": "envoy", "restartPolicy": "Always"}]
    statuses = [{"name": "main", "state": main or {"waiting": {"reason": "ContainerCreating"}}}]
    if last:
        statuses[0]["lastState"] = last
    return {
        "metadata": {"name": "p", "creationTimestamp": _stamp(age)},
        "spec": spec,
        "status": {
            "phase": phase,
            "startTime": _stamp(age),
            "conditions": conditions or _conditions(("PodScheduled", "True")),
            "containerStatuses": statuses,
            "initContainerStatuses": init or [],
            **status,
        },
    }


RUNNING = pod("Running", main={"running": {"startedAt": _stamp(5)}})


def terminated(code: int, reason: str = "Error", message: str | None = None) -> dict[str, Any]:
    ended: dict[str, Any] = {"exitCode": code, "reason": reason}
    if message:
        ended["message"] = message
    return {"terminated": ended}


def job(*conditions: tuple[str, str] | tuple[str, str, str, str]) -> dict[str, Any]:
    return {"kind": "Job", "status": {"conditions": _conditions(*conditions)}}


def look(kind: str, obj: dict[str, Any], *pods: dict[str, Any]) -> Observation:
    return observe(kind, obj, list(pods), now=NOW)


# -- a Job -----------------------------------------------------------------------------


def test_job_pending_running_succeeded():
    assert look("Job", job()) == Observation("pending")
    assert look("Job", job(), pod()) == Observation("pending")
    assert look("Job", job(), RUNNING) == Observation("running")
    done = pod("Succeeded", main=terminated(0, "Completed"))
    assert look("Job", job(("Complete", "True")), done) == Observation("succeeded", exit_code=0)


def test_job_oom_killed_fails_at_once_with_its_limit():
    oom = pod("Failed", main=terminated(137, "OOMKilled"), memory="1Gi")
    expected = Observation(
        "failed", "OOMKilled", "main: out of memory under its memory limit of 1Gi", 137
    )
    assert look("Job", job(), oom) == expected
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed, oom) == expected


def test_job_exit_code_failure_carries_the_end_of_its_log():
    crashed = pod("Failed", main=terminated(1, "Error", "Traceback ...\nValueError: bad lr"))
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed, crashed) == Observation(
        "failed", "ExitCode", "main: Traceback ...\nValueError: bad lr", 1
    )
    quiet = pod("Failed", main=terminated(3))
    assert look("Job", failed, quiet) == Observation(
        "failed", "ExitCode", "main: exited with code 3", 3
    )


def test_job_without_a_pod_cause_fails_with_the_job_reason():
    failed = job(
        ("Failed", "True", "BackoffLimitExceeded", "Job has reached the specified backoff limit")
    )
    assert look("Job", failed) == Observation(
        "failed", "BackoffLimitExceeded", "Job has reached the specified backoff limit"
    )


def test_job_deadline_exceeded_wins_over_the_killed_container():
    killed = pod("Failed", main=terminated(143))
    failed = job(
        ("Failed", "True", "DeadlineExceeded", "Job was active longer than specified deadline")
    )
    assert look("Job", failed, killed) == Observation(
        "failed", "DeadlineExceeded", "Job was active longer than specified deadline", 143
    )


def test_image_pull_failure_is_pending_then_failed_once_it_persists():
    pulling = {"waiting": {"reason": "ErrImagePull", "message": "manifest unknown"}}
    assert look("Job", job(), pod(main=pulling, age=30)) == Observation(
        "pending", "ErrImagePull", "main: manifest unknown"
    )
    backoff = {"waiting": {"reason": "ImagePullBackOff", "message": "Back-off pulling image"}}
    assert look("Job", job(), pod(main=backoff, age=301)) == Observation(
        "failed", "ImagePullBackOff", "main: Back-off pulling image"
    )
    assert (
        observe("Job", job(), [pod(main=backoff, age=30)], now=NOW, stuck_after=20).phase
        == "failed"
    )


def test_a_missing_secret_key_is_retried_then_fails():
    config = {
        "waiting": {"reason": "CreateContainerConfigError", "message": 'secret "s" not found'}
    }
    assert look("Job", job(), pod(main=config, age=5)).phase == "pending"
    assert look("Job", job(), pod(main=config, age=600)) == Observation(
        "failed", "CreateContainerConfigError", 'main: secret "s" not found'
    )


def test_an_invalid_image_name_fails_at_once():
    invalid = {"waiting": {"reason": "InvalidImageName", "message": "couldn't parse image"}}
    assert look("Job", job(), pod(main=invalid, age=1)) == Observation(
        "failed", "InvalidImageName", "main: couldn't parse image"
    )


def test_evicted_pod_fails_the_job():
    evicted = pod(
        "Failed",
        reason="Evicted",
        message="The node was low on resource: memory.",
        main=terminated(137),
    )
    assert look("Job", job(), evicted) == Observation(
        "failed", "Evicted", "The node was low on resource: memory."
    )
    kubelet = pod(
        "Running",
        main={"running": {}},
        conditions=_conditions(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", "TerminationByKubelet", "node shutdown"),
        ),
    )
    assert look("Job", job(), kubelet) == Observation("failed", "Evicted", "node shutdown")


@pytest.mark.parametrize("reason", ["DeletionByTaintManager", "DeletionByPodGC"])
def test_node_lost_from_the_disruption_condition(reason):
    lost = pod(
        "Running",
        main={"running": {}},
        conditions=_conditions(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", reason, "Taint manager: deleting due to NoExecute taint"),
        ),
    )
    assert look("Job", job(), lost) == Observation(
        "failed", "NodeLost", "Taint manager: deleting due to NoExecute taint"
    )


def test_node_lost_from_the_pod_reason_and_preemption():
    lost = pod(
        "Running", main={"running": {}}, reason="NodeLost", message="Node n1 is unresponsive"
    )
    assert look("Job", job(), lost) == Observation("failed", "NodeLost", "Node n1 is unresponsive")
    preempted = pod(
        "Running",
        main={"running": {}},
        conditions=_conditions(
            ("PodScheduled", "True"),
            ("DisruptionTarget", "True", "PreemptionByScheduler", "preempted by p"),
        ),
    )
    assert look("Job", job(), preempted) == Observation("failed", "Preempted", "preempted by p")


def test_unschedulable_is_pending_with_the_schedulers_message():
    waiting = pod(
        conditions=_conditions(
            (
                "PodScheduled",
                "False",
                "Unschedulable",
                "0/3 nodes are available: 3 Insufficient nvidia.com/gpu.",
            )
        )
    )
    assert look("Job", job(), waiting) == Observation(
        "pending", "Unschedulable", "0/3 nodes are available: 3 Insufficient nvidia.com/gpu."
    )


def test_a_failed_init_step_fails_the_job_but_a_sidecar_does_not():
    clone = {"name": "plx-init-0", "state": terminated(128, "Error", "fatal: repository not found")}
    failed = pod("Failed", init=[clone])
    assert look("Job", job(), failed) == Observation(
        "failed", "InitFailed", "plx-init-0: fatal: repository not found", 128
    )
    proxy = {"name": "proxy", "state": {"running": {}}, "lastState": terminated(1)}
    running = pod("Running", main={"running": {}}, init=[proxy], sidecar=True)
    assert look("Job", job(), running) == Observation("running")


def test_a_suspended_job_waits():
    assert look("Job", job(("Suspended", "True"))) == Observation(
        "pending", "Suspended", "the job is suspended"
    )


# -- a Deployment ----------------------------------------------------------------------


def deployment(available: int = 0, *conditions: tuple[str, str, str, str]) -> dict[str, Any]:
    status: dict[str, Any] = {"conditions": _conditions(*conditions)}
    if available:
        status["availableReplicas"] = available
    return {"kind": "Deployment", "status": status}


def test_a_service_runs_once_a_replica_is_available():
    assert look("Deployment", deployment(), pod()) == Observation("pending")
    assert look("Deployment", deployment(1), RUNNING) == Observation("running")
    available = deployment(0, ("Available", "True", "MinimumReplicasAvailable", "ok"))
    assert look("Deployment", available, RUNNING) == Observation("running")


def test_a_crash_looping_service_waits_until_its_deadline():
    looping = pod(
        "Running",
        main={"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 40s"}},
        last=terminated(137, "OOMKilled"),
    )
    assert look("Deployment", deployment(), looping) == Observation(
        "pending", "CrashLoopBackOff", "main: back-off 40s"
    )
    late = deployment(
        0,
        (
            "Progressing",
            "False",
            "ProgressDeadlineExceeded",
            'ReplicaSet "x" has timed out progressing.',
        ),
    )
    assert look("Deployment", late, looping) == Observation(
        "failed",
        "ProgressDeadlineExceeded",
        'ReplicaSet "x" has timed out progressing. (CrashLoopBackOff: main: back-off 40s)',
    )


def test_a_service_is_not_failed_by_an_evicted_pod_its_deployment_replaces():
    evicted = pod("Failed", reason="Evicted", message="low memory")
    assert look("Deployment", deployment(1), evicted, RUNNING) == Observation("running")


# -- Kubeflow --------------------------------------------------------------------------


def kubeflow(*conditions: tuple[str, str] | tuple[str, str, str, str]) -> dict[str, Any]:
    return {"kind": "PyTorchJob", "status": {"conditions": _conditions(*conditions)}}


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
    head_ready = cluster(conditions=_conditions(("HeadPodReady", "True")))
    assert look("RayCluster", head_ready) == Observation("running")
    assert look("RayCluster", cluster(state="suspended")).reason == "Suspended"
    assert look("RayCluster", cluster(state="failed", reason="RayConfigError", message="x")) == (
        Observation("failed", "RayConfigError", "x")
    )
    quota = cluster(
        conditions=_conditions(("ReplicaFailure", "True", "FailedCreateWorkerPod", "quota"))
    )
    assert look("RayCluster", quota) == Observation("pending", "FailedCreateWorkerPod", "quota")


# -- Dask ------------------------------------------------------------------------------


def test_dask_cluster_phases():
    def cluster(phase: str) -> dict[str, Any]:
        return {"kind": "DaskCluster", "status": {"phase": phase}}

    assert look("DaskCluster", cluster("Created")) == Observation("pending")
    unschedulable = pod(
        conditions=_conditions(("PodScheduled", "False", "Unschedulable", "no nodes"))
    )
    assert look("DaskCluster", cluster("Running"), unschedulable) == Observation(
        "pending", "Unschedulable", "no nodes"
    )
    assert look("DaskCluster", cluster("Running"), RUNNING) == Observation("running")
    assert look("DaskCluster", cluster("Error")).phase == "failed"


def test_an_unknown_kind_is_refused():
    with pytest.raises(ValueError, match="no observer for StatefulSet"):
        look("StatefulSet", {})
