"""How an attempt is doing, from the objects Kubernetes reports (pure).

:func:`observe` reads a workload's primary object (the kind :class:`Workload` names) and its
pods (selected by the workload's ``selector``), as the API serves them (dicts), into an
:class:`Observation`: ``pending``, ``running``, ``succeeded`` or ``failed``, with a reason,
a message and, when known, the main container's exit code.

The controller's own verdict comes first (a Job's ``Complete``/``Failed`` conditions, a
Kubeflow job's ``Succeeded``/``Failed``, a RayJob's ``jobStatus``...). The pods say why
(:mod:`~axonal_agent.domain.kube.pod_status`). A pod's failure is final, so reported as soon
as seen, where nothing replaces the pod: a Job's, a Kubeflow job's (they restart ``Never``
and fail their job), a RayJob's head (without GCS fault tolerance the Ray cluster, its job
with it, does not outlive its head). A container that cannot start fails the attempt once
stuck for ``stuck_after`` seconds, whatever the kind.

A service (a Deployment) runs while a replica is available. Its pods are replaced, their
containers restarted (``restartPolicy: Always``,
https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#pod-template), so a pod's
failure is not final: while no replica is available it is why the service waits (after an
eviction, a lost node, a crash: the kubelet restarts a crashed container at once), as is a
container waiting to be restarted, in ``CrashLoopBackOff`` ("Repeated crashes",
https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#container-restarts). The
Deployment never gives up on a crash loop once it was rolled out (its progress deadline
applies to rollouts only), so a service whose container has been crash-looping with no
replica available for ``stuck_after`` seconds fails, with why its container crashed (its
reason and exit code). It fails too when its rollout exceeds its progress deadline. A Ray or
Dask cluster runs once the operator says so and a pod runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from axonal_agent.domain.kube.pod_status import (
    STUCK_AFTER,
    Obj,
    Observation,
    Pods,
    seconds_since,
    status_of,
    true_condition,
)

__all__ = ["STUCK_AFTER", "Observation", "observe"]


def _job(job: Obj, pods: Pods) -> Observation:
    if true_condition(job, "Complete") or true_condition(job, "SuccessCriteriaMet"):
        return Observation("succeeded", exit_code=0)
    failed = true_condition(job, "Failed") or true_condition(job, "FailureTarget")
    if failed is not None:
        if failed.get("reason") == "DeadlineExceeded" or pods.failure is None:
            return Observation(
                "failed", failed.get("reason"), failed.get("message"), pods.exit_code
            )
        return pods.failure
    if true_condition(job, "Suspended"):
        return Observation("pending", "Suspended", "the job is suspended")
    return pods.fatal(replaced=False) or pods.progress()


def _deployment(deployment: Obj, pods: Pods) -> Observation:
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    for condition in status_of(deployment).get("conditions") or []:
        if (
            condition.get("type") == "Progressing"
            and condition.get("reason") == "ProgressDeadlineExceeded"
        ):
            why = pods.stuck or pods.waiting
            detail = f" ({why.reason}: {why.message})" if why else ""
            return Observation(
                "failed", "ProgressDeadlineExceeded", f"{condition.get('message')}{detail}"
            )
    available = int(status_of(deployment).get("availableReplicas") or 0) > 0
    if available or true_condition(deployment, "Available"):
        return Observation("running")
    looping = pods.crash_loop
    if looping is not None and _unavailable_for(deployment, pods.now) > pods.stuck_after:
        return Observation(
            "failed",
            looping.reason,
            f"{looping.message} (CrashLoopBackOff, no replica available for over "
            f"{pods.stuck_after:g}s)",
            looping.exit_code,
        )
    replica_failed = pods.failure and replace(pods.failure, phase="pending")
    return pods.stuck or pods.waiting or replica_failed or _rolled_out(deployment)


def _unavailable_for(deployment: Obj, now: datetime) -> float:
    """Seconds since the Deployment has had no replica available (since its ``Available``
    condition turned False, else since it was made)."""
    for condition in status_of(deployment).get("conditions") or []:
        if condition.get("type") == "Available" and condition.get("lastTransitionTime"):
            return seconds_since(str(condition["lastTransitionTime"]), now)
    created = (deployment.get("metadata") or {}).get("creationTimestamp")
    return seconds_since(str(created), now) if created else 0.0


def _rolled_out(deployment: Obj) -> Observation:
    """Pending; once its rollout completed (``Progressing`` ``NewReplicaSetAvailable``), with
    why the Deployment says it has no replica available."""
    progressing = true_condition(deployment, "Progressing") or {}
    for condition in status_of(deployment).get("conditions") or []:
        if (
            condition.get("type") == "Available"
            and condition.get("status") == "False"
            and progressing.get("reason") == "NewReplicaSetAvailable"
        ):
            return Observation("pending", condition.get("reason"), condition.get("message"))
    return Observation("pending")


def _kubeflow(job: Obj, pods: Pods) -> Observation:
    if true_condition(job, "Succeeded"):
        return Observation("succeeded", exit_code=0)
    failed = true_condition(job, "Failed")
    if failed is not None:
        reason, message = failed.get("reason"), failed.get("message")
        return pods.failure or Observation("failed", reason, message, pods.exit_code)
    fatal = pods.fatal(replaced=False)
    if fatal is not None:
        return fatal
    if true_condition(job, "Suspended"):
        return Observation("pending", "Suspended", "the job is suspended")
    restarting = true_condition(job, "Restarting")
    if restarting is not None:
        return Observation("running", "Restarting", restarting.get("message"))
    return pods.progress(running=true_condition(job, "Running") is not None)


#: A RayJob's final ``jobStatus`` -> the failure's reason and message when it gives none.
_RAY_FAILURES = {
    "FAILED": ("AppFailed", "the Ray job failed"),
    "STOPPED": ("Stopped", "the Ray job was stopped"),
}


def _ray_head(pod: Obj) -> bool:
    """KubeRay's label of a Ray cluster's head pod."""
    labels = (pod.get("metadata") or {}).get("labels") or {}
    return bool(labels.get("ray.io/node-type") == "head")


def _ray_job(job: Obj, pods: Pods) -> Observation:
    status = status_of(job)
    deployment, state = status.get("jobDeploymentStatus"), status.get("jobStatus")
    reason, message = status.get("reason"), status.get("message")
    if state == "SUCCEEDED":
        return Observation("succeeded", exit_code=0)
    if state in _RAY_FAILURES:
        default_reason, default_message = _RAY_FAILURES[state]
        return Observation("failed", reason or default_reason, message or default_message)
    if deployment in ("Failed", "ValidationFailed"):
        return Observation("failed", reason or deployment, message)
    fatal = pods.fatal(replaced=True) or pods.only(_ray_head).failure
    if fatal is not None:
        return fatal
    if deployment in ("Suspending", "Suspended"):
        return Observation("pending", "Suspended", message)
    return pods.progress(running=state == "RUNNING")


def _ray_cluster(cluster: Obj, pods: Pods) -> Observation:
    status = status_of(cluster)
    if status.get("state") == "failed":
        return Observation("failed", status.get("reason") or "Failed", status.get("message"))
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    if status.get("state") == "suspended" or true_condition(cluster, "RayClusterSuspended"):
        return Observation("pending", "Suspended", "the Ray cluster is suspended")
    if status.get("state") == "ready" or true_condition(cluster, "HeadPodReady"):
        return Observation("running")
    failure = true_condition(cluster, "ReplicaFailure")
    if failure is not None:
        return Observation("pending", failure.get("reason"), failure.get("message"))
    return pods.progress(running=False)


def _dask_cluster(cluster: Obj, pods: Pods) -> Observation:
    phase = status_of(cluster).get("phase")
    if phase == "Error":
        return Observation("failed", "Error", "the Dask operator could not create the cluster")
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    return pods.progress(running=phase == "Running" and pods.running)


_OBSERVERS: dict[str, Callable[[Obj, Pods], Observation]] = {
    "Job": _job,
    "Deployment": _deployment,
    "TFJob": _kubeflow,
    "PyTorchJob": _kubeflow,
    "MPIJob": _kubeflow,
    "RayJob": _ray_job,
    "RayCluster": _ray_cluster,
    "DaskCluster": _dask_cluster,
}


def observe(
    kind: str,
    obj: Obj,
    pods: Sequence[Obj] = (),
    *,
    now: datetime,
    stuck_after: float = STUCK_AFTER,
) -> Observation:
    """How the workload whose primary object ``obj`` is of ``kind`` (``Workload.kind.kind``)
    is doing, given its ``pods``, at ``now`` (timezone-aware). ``ValueError`` for a kind that
    no builder makes."""
    if kind not in _OBSERVERS:
        raise ValueError(f"no observer for {kind}")
    return _OBSERVERS[kind](obj, Pods.read(pods, now, stuck_after))
