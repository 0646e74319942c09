"""How an attempt is doing, from the objects Kubernetes reports (pure).

:func:`observe` reads a workload's primary object (the kind :class:`Workload` names) and its
pods (selected by the workload's ``selector``), as the API serves them (dicts), into an
:class:`Observation`: ``pending``, ``running``, ``succeeded`` or ``failed``, with a reason,
a message and, when known, the main container's exit code.

The controller's own verdict comes first (a Job's ``Complete``/``Failed`` conditions, a
Kubeflow job's ``Succeeded``/``Failed``, a RayJob's ``jobStatus``...). The pods say why:

- failures of a pod, final where nothing replaces the pod (a Job's, a Kubeflow job's: they
  restart ``Never`` and fail their job; a RayJob's head: without GCS fault tolerance the
  Ray cluster, its job with it, does not outlive its head), so reported as soon as seen:
  ``Evicted`` (the pod's ``status.reason``, or a ``DisruptionTarget`` condition for an
  eviction or a kubelet termination), ``NodeLost`` (``status.reason``, or
  ``DisruptionTarget`` by the taint manager or the pod garbage collector: the node went
  away), ``Preempted``, ``OOMKilled`` (exit code 137, with the memory limit), ``InitFailed``
  (an init step exited non-zero), ``ExitCode`` (the main container exited non-zero, its pod
  failed or restarted it; the message is the end of its log). A pod's own failure comes
  before that of a pod killed by its deletion (the training operator deletes the other
  replicas of a job whose replica failed);
- a container that cannot start: ``InvalidImageName``/``ErrImageNeverPull`` fail at once;
  ``ErrImagePull``/``ImagePullBackOff`` and ``CreateContainerConfigError``/
  ``CreateContainerError``/``RunContainerError`` (a missing Secret key...) are retried by the
  kubelet and may clear up, so they leave the attempt ``pending`` with that reason until
  the pod is older than ``stuck_after`` seconds, then fail it, whatever the kind;
- why a pod waits: ``Unschedulable`` (``PodScheduled`` False) or ``SchedulingGated``, a
  waiting container's reason (``CrashLoopBackOff``...).

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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any, Literal

__all__ = ["STUCK_AFTER", "Observation", "observe"]

Phase = Literal["pending", "running", "succeeded", "failed"]
Obj = Mapping[str, Any]

#: Seconds a pod may stay unable to pull its image or create its container.
STUCK_AFTER = 300.0

_FAIL_AT_ONCE = frozenset({"InvalidImageName", "ErrImageNeverPull"})
_RETRIED = frozenset(
    {
        "ErrImagePull",
        "ImagePullBackOff",
        "CreateContainerConfigError",
        "CreateContainerError",
        "RunContainerError",
    }
)
_NOT_A_REASON = frozenset({"ContainerCreating", "PodInitializing"})
#: ``DisruptionTarget`` reasons -> ours.
_DISRUPTIONS = {
    "DeletionByTaintManager": "NodeLost",
    "DeletionByPodGC": "NodeLost",
    "PreemptionByScheduler": "Preempted",
    "EvictionByEvictionAPI": "Evicted",
    "TerminationByKubelet": "Evicted",
}


@dataclass(frozen=True, slots=True)
class Observation:
    phase: Phase
    reason: str | None = None
    message: str | None = None
    exit_code: int | None = None


def _status(obj: Obj) -> Obj:
    status = obj.get("status")
    return status if isinstance(status, Mapping) else {}


def _condition(obj: Obj, kind: str) -> Obj | None:
    """The condition of type ``kind`` if its status is True."""
    for condition in _status(obj).get("conditions") or []:
        if condition.get("type") == kind and condition.get("status") == "True":
            return condition  # type: ignore[no-any-return]
    return None


def _seconds_since(stamp: str, now: datetime) -> float:
    return (now - datetime.fromisoformat(stamp.replace("Z", "+00:00"))).total_seconds()


def _age(pod: Obj, now: datetime) -> float:
    stamp = _status(pod).get("startTime") or (pod.get("metadata") or {}).get("creationTimestamp")
    return _seconds_since(str(stamp), now) if stamp else 0.0


def _statuses(pod: Obj) -> list[tuple[Obj, bool]]:
    """``(container status, is an init step)``: init steps (not sidecars), then the rest."""
    spec = pod.get("spec") or {}
    sidecars = {
        c.get("name")
        for c in spec.get("initContainers") or []
        if c.get("restartPolicy") == "Always"
    }
    status = _status(pod)
    steps = [(s, s.get("name") not in sidecars) for s in status.get("initContainerStatuses") or []]
    return [*steps, *((s, False) for s in status.get("containerStatuses") or [])]


def _main_name(pod: Obj) -> str | None:
    containers = (pod.get("spec") or {}).get("containers") or []
    return containers[0].get("name") if containers else None


def _memory_limit(pod: Obj, name: str) -> str | None:
    spec = pod.get("spec") or {}
    for container in [*(spec.get("initContainers") or []), *(spec.get("containers") or [])]:
        if container.get("name") == name:
            return (container.get("resources") or {}).get("limits", {}).get("memory")  # type: ignore[no-any-return]
    return None


def _terminated(status: Obj) -> Obj | None:
    for key in ("state", "lastState"):
        ended = (status.get(key) or {}).get("terminated")
        if ended:
            return ended  # type: ignore[no-any-return]
    return None


def _main_exit(pod: Obj) -> int | None:
    """The exit code of the main container, if it ended."""
    for container, step in _statuses(pod):
        ended = (container.get("state") or {}).get("terminated") or {}
        if not step and container.get("name") == _main_name(pod) and "exitCode" in ended:
            return int(ended["exitCode"])
    return None


def _pod_failure(pod: Obj) -> Observation | None:
    """Why ``pod`` failed, if it did (or is being deleted for good), or why its container
    was restarted."""
    status = _status(pod)
    if status.get("reason") in ("Evicted", "NodeLost"):
        return Observation("failed", status["reason"], status.get("message"), _main_exit(pod))
    disruption = _condition(pod, "DisruptionTarget")
    if disruption is not None:
        reason = _DISRUPTIONS.get(str(disruption.get("reason")), "Disrupted")
        return Observation("failed", reason, disruption.get("message"), _main_exit(pod))
    main = _main_name(pod)
    for container, step in _statuses(pod):
        ended = _terminated(container)
        if not ended:
            continue
        name, code = container.get("name"), ended.get("exitCode")
        if ended.get("reason") == "OOMKilled":
            limit = _memory_limit(pod, str(name))
            under = f" under its memory limit of {limit}" if limit else ""
            return Observation("failed", "OOMKilled", f"{name}: out of memory{under}", code)
        restarted = bool((container.get("lastState") or {}).get("terminated"))
        if code and (step or (name == main and (status.get("phase") == "Failed" or restarted))):
            log = ended.get("message") or f"exited with code {code}"
            return Observation(
                "failed", "InitFailed" if step else "ExitCode", f"{name}: {log}", code
            )
    return None


def _collateral(pod: Obj, failure: Observation) -> int:
    """How far ``failure`` is from being ``pod``'s own: 0 for a live pod's crash, 1 for a
    pod that failed, 2 for one whose containers its deletion killed."""
    phase = _status(pod).get("phase")
    deleted = bool((pod.get("metadata") or {}).get("deletionTimestamp"))
    if phase not in ("Succeeded", "Failed") and not deleted:
        return 0
    return 2 if deleted and failure.reason == "ExitCode" else 1


def _crash_looping(pod: Obj) -> bool:
    """A container of ``pod`` waits out the back-off before its next restart."""
    return any(
        ((c.get("state") or {}).get("waiting") or {}).get("reason") == "CrashLoopBackOff"
        for c, _ in _statuses(pod)
    )


def _stuck(pod: Obj, now: datetime, stuck_after: float) -> Observation | None:
    """A container of ``pod`` that cannot start: failed, or pending while it may recover."""
    for container, _ in _statuses(pod):
        waiting = (container.get("state") or {}).get("waiting") or {}
        reason = waiting.get("reason")
        if reason in _FAIL_AT_ONCE or reason in _RETRIED:
            message = f"{container.get('name')}: {waiting.get('message') or reason}"
            failed = reason in _FAIL_AT_ONCE or _age(pod, now) > stuck_after
            return Observation("failed" if failed else "pending", reason, message)
    return None


def _waiting(pod: Obj) -> Observation | None:
    """Why ``pod`` is not running yet (scheduling, a waiting container), if it says."""
    for condition in _status(pod).get("conditions") or []:
        if condition.get("type") == "PodScheduled" and condition.get("status") == "False":
            return Observation("pending", condition.get("reason"), condition.get("message"))
    for container, _ in _statuses(pod):
        waiting = (container.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") and waiting["reason"] not in _NOT_A_REASON:
            message = f"{container.get('name')}: {waiting.get('message') or waiting['reason']}"
            return Observation("pending", waiting["reason"], message)
    return None


@dataclass(frozen=True, slots=True)
class _Pods:
    """What the pods of a workload say (``crash_loop``: why the container of a pod in
    ``CrashLoopBackOff`` crashed)."""

    pods: Sequence[Obj]
    now: datetime
    stuck_after: float
    failure: Observation | None
    stuck: Observation | None
    waiting: Observation | None
    crash_loop: Observation | None
    running: bool
    exit_code: int | None

    @classmethod
    def read(cls, pods: Sequence[Obj], now: datetime, stuck_after: float) -> _Pods:
        failed = [(p, f) for p in pods if (f := _pod_failure(p)) is not None]
        failed.sort(key=lambda found: _collateral(*found))
        failures = [f for _, f in failed]
        stuck = [s for s in (_stuck(p, now, stuck_after) for p in pods) if s is not None]
        waiting = [w for w in map(_waiting, pods) if w is not None]
        codes = [f.exit_code for f in failures if f.exit_code is not None]
        return cls(
            pods=pods,
            now=now,
            stuck_after=stuck_after,
            failure=failures[0] if failures else None,
            stuck=next((s for s in stuck if s.phase == "failed"), stuck[0] if stuck else None),
            waiting=waiting[0] if waiting else None,
            crash_loop=next((f for p, f in failed if _crash_looping(p)), None),
            running=any(_status(p).get("phase") in ("Running", "Succeeded") for p in pods),
            exit_code=codes[0] if codes else None,
        )

    def only(self, match: Callable[[Obj], bool]) -> _Pods:
        """What the pods that ``match`` say."""
        return _Pods.read([p for p in self.pods if match(p)], self.now, self.stuck_after)

    def fatal(self, *, replaced: bool) -> Observation | None:
        """A failure that ends the attempt: any pod failure where pods are not replaced."""
        if self.stuck is not None and self.stuck.phase == "failed":
            return self.stuck
        return None if replaced else self.failure

    def progress(self, *, running: bool | None = None) -> Observation:
        """``running`` (by default: a pod runs), else ``pending`` and why."""
        if self.running if running is None else running:
            return Observation("running")
        return self.stuck or self.waiting or Observation("pending")


def _job(job: Obj, pods: _Pods) -> Observation:
    if _condition(job, "Complete") or _condition(job, "SuccessCriteriaMet"):
        return Observation("succeeded", exit_code=0)
    failed = _condition(job, "Failed") or _condition(job, "FailureTarget")
    if failed is not None:
        if failed.get("reason") == "DeadlineExceeded" or pods.failure is None:
            return Observation(
                "failed", failed.get("reason"), failed.get("message"), pods.exit_code
            )
        return pods.failure
    if _condition(job, "Suspended"):
        return Observation("pending", "Suspended", "the job is suspended")
    return pods.fatal(replaced=False) or pods.progress()


def _deployment(deployment: Obj, pods: _Pods) -> Observation:
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    for condition in _status(deployment).get("conditions") or []:
        if (
            condition.get("type") == "Progressing"
            and condition.get("reason") == "ProgressDeadlineExceeded"
        ):
            why = pods.stuck or pods.waiting
            detail = f" ({why.reason}: {why.message})" if why else ""
            return Observation(
                "failed", "ProgressDeadlineExceeded", f"{condition.get('message')}{detail}"
            )
    if int(_status(deployment).get("availableReplicas") or 0) > 0 or _condition(
        deployment, "Available"
    ):
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
    for condition in _status(deployment).get("conditions") or []:
        if condition.get("type") == "Available" and condition.get("lastTransitionTime"):
            return _seconds_since(str(condition["lastTransitionTime"]), now)
    created = (deployment.get("metadata") or {}).get("creationTimestamp")
    return _seconds_since(str(created), now) if created else 0.0


def _rolled_out(deployment: Obj) -> Observation:
    """Pending; once its rollout completed (``Progressing`` ``NewReplicaSetAvailable``), with
    why the Deployment says it has no replica available."""
    progressing = _condition(deployment, "Progressing") or {}
    for condition in _status(deployment).get("conditions") or []:
        if (
            condition.get("type") == "Available"
            and condition.get("status") == "False"
            and progressing.get("reason") == "NewReplicaSetAvailable"
        ):
            return Observation("pending", condition.get("reason"), condition.get("message"))
    return Observation("pending")


def _kubeflow(job: Obj, pods: _Pods) -> Observation:
    if _condition(job, "Succeeded"):
        return Observation("succeeded", exit_code=0)
    failed = _condition(job, "Failed")
    if failed is not None:
        reason, message = failed.get("reason"), failed.get("message")
        return pods.failure or Observation("failed", reason, message, pods.exit_code)
    fatal = pods.fatal(replaced=False)
    if fatal is not None:
        return fatal
    if _condition(job, "Suspended"):
        return Observation("pending", "Suspended", "the job is suspended")
    restarting = _condition(job, "Restarting")
    if restarting is not None:
        return Observation("running", "Restarting", restarting.get("message"))
    return pods.progress(running=_condition(job, "Running") is not None)


#: A RayJob's final ``jobStatus`` -> the failure's reason and message when it gives none.
_RAY_FAILURES = {
    "FAILED": ("AppFailed", "the Ray job failed"),
    "STOPPED": ("Stopped", "the Ray job was stopped"),
}


def _ray_head(pod: Obj) -> bool:
    """KubeRay's label of a Ray cluster's head pod."""
    labels = (pod.get("metadata") or {}).get("labels") or {}
    return bool(labels.get("ray.io/node-type") == "head")


def _ray_job(job: Obj, pods: _Pods) -> Observation:
    status = _status(job)
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


def _ray_cluster(cluster: Obj, pods: _Pods) -> Observation:
    status = _status(cluster)
    if status.get("state") == "failed":
        return Observation("failed", status.get("reason") or "Failed", status.get("message"))
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    if status.get("state") == "suspended" or _condition(cluster, "RayClusterSuspended"):
        return Observation("pending", "Suspended", "the Ray cluster is suspended")
    if status.get("state") == "ready" or _condition(cluster, "HeadPodReady"):
        return Observation("running")
    failure = _condition(cluster, "ReplicaFailure")
    if failure is not None:
        return Observation("pending", failure.get("reason"), failure.get("message"))
    return pods.progress(running=False)


def _dask_cluster(cluster: Obj, pods: _Pods) -> Observation:
    phase = _status(cluster).get("phase")
    if phase == "Error":
        return Observation("failed", "Error", "the Dask operator could not create the cluster")
    fatal = pods.fatal(replaced=True)
    if fatal is not None:
        return fatal
    return pods.progress(running=phase == "Running" and pods.running)


_OBSERVERS: dict[str, Callable[[Obj, _Pods], Observation]] = {
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
    return _OBSERVERS[kind](obj, _Pods.read(pods, now, stuck_after))
