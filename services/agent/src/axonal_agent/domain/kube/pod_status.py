"""What the pods of a workload say (pure): :class:`Pods` reads them, as the API serves them
(dicts), for :func:`~axonal_agent.domain.kube.status.observe`.

- failures of a pod: ``Evicted`` (the pod's ``status.reason``, or a ``DisruptionTarget``
  condition for an eviction or a kubelet termination), ``NodeLost`` (``status.reason``, or
  ``DisruptionTarget`` by the taint manager or the pod garbage collector: the node went
  away), ``Preempted``, ``OOMKilled`` (exit code 137, with the memory limit), ``InitFailed``
  (an init step exited non-zero), ``ExitCode`` (the main container exited non-zero, its pod
  failed or restarted it; the message is the end of its log), with the main container's
  exit code when it ended. A pod's own failure comes before that of a pod killed by its
  deletion (the training operator deletes the other replicas of a job whose replica
  failed);
- a container that cannot start: ``InvalidImageName``/``ErrImageNeverPull`` fail at once;
  ``ErrImagePull``/``ImagePullBackOff`` and ``CreateContainerConfigError``/
  ``CreateContainerError``/``RunContainerError`` (a missing Secret key...) are retried by the
  kubelet and may clear up, so they leave the attempt ``pending`` with that reason until
  the pod is older than ``stuck_after`` seconds, then fail it, whatever the kind;
- why a pod waits: ``Unschedulable`` (``PodScheduled`` False) or ``SchedulingGated``, a
  waiting container's reason (``CrashLoopBackOff``: a container that keeps crashing waits
  out a back-off before each restart).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

__all__ = [
    "STUCK_AFTER",
    "Obj",
    "Observation",
    "Phase",
    "Pods",
    "seconds_since",
    "status_of",
    "true_condition",
]

Phase = Literal["pending", "running", "succeeded", "failed"]
Obj = Mapping[str, Any]

#: Seconds a pod may stay unable to pull its image or create its container (a service:
#: crash-loop with no replica available).
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


def status_of(obj: Obj) -> Obj:
    status = obj.get("status")
    return status if isinstance(status, Mapping) else {}


def true_condition(obj: Obj, kind: str) -> Obj | None:
    """The condition of type ``kind`` if its status is True."""
    for condition in status_of(obj).get("conditions") or []:
        if condition.get("type") == kind and condition.get("status") == "True":
            return condition  # type: ignore[no-any-return]
    return None


def seconds_since(stamp: str, now: datetime) -> float:
    return (now - datetime.fromisoformat(stamp.replace("Z", "+00:00"))).total_seconds()


def _age(pod: Obj, now: datetime) -> float:
    stamp = status_of(pod).get("startTime") or (pod.get("metadata") or {}).get("creationTimestamp")
    return seconds_since(str(stamp), now) if stamp else 0.0


def _statuses(pod: Obj) -> list[tuple[Obj, bool]]:
    """``(container status, is an init step)``: init steps (not sidecars), then the rest."""
    spec = pod.get("spec") or {}
    sidecars = {
        c.get("name")
        for c in spec.get("initContainers") or []
        if c.get("restartPolicy") == "Always"
    }
    status = status_of(pod)
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
    status = status_of(pod)
    if status.get("reason") in ("Evicted", "NodeLost"):
        return Observation("failed", status["reason"], status.get("message"), _main_exit(pod))
    disruption = true_condition(pod, "DisruptionTarget")
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
    phase = status_of(pod).get("phase")
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
    for condition in status_of(pod).get("conditions") or []:
        if condition.get("type") == "PodScheduled" and condition.get("status") == "False":
            return Observation("pending", condition.get("reason"), condition.get("message"))
    for container, _ in _statuses(pod):
        waiting = (container.get("state") or {}).get("waiting") or {}
        if waiting.get("reason") and waiting["reason"] not in _NOT_A_REASON:
            message = f"{container.get('name')}: {waiting.get('message') or waiting['reason']}"
            return Observation("pending", waiting["reason"], message)
    return None


@dataclass(frozen=True, slots=True)
class Pods:
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
    def read(cls, pods: Sequence[Obj], now: datetime, stuck_after: float) -> Pods:
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
            running=any(status_of(p).get("phase") in ("Running", "Succeeded") for p in pods),
            exit_code=codes[0] if codes else None,
        )

    def only(self, match: Callable[[Obj], bool]) -> Pods:
        """What the pods that ``match`` say."""
        return Pods.read([p for p in self.pods if match(p)], self.now, self.stuck_after)

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
