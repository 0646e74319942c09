"""Scripted sequences of a workload's main pod, as a cluster produces them; replay with
``play``.

Each sequence follows https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/ for
the pod; what follows from it is the controllers' (the stand-ins'): a Job's conditions, with
``backoffLimit: 0`` (https://kubernetes.io/docs/concepts/workloads/controllers/job/), a
Deployment's replacement pod, a training job's or a RayJob's reaction. The pod's
``restartPolicy`` decides whether a container that ends is restarted in it (the kubelet's).
By default the sequences are of a Job's pod; :meth:`Scenarios.of` gives them for the main pod
of another kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from axonal_testing.kube.custom import owned_pods
from axonal_testing.kube.kubelet import Kubelet
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.selectors import label_matcher
from axonal_testing.kube.store import Store
from axonal_testing.kube.training import TRAINING

__all__ = ["Scenarios", "Step", "main_pod"]

#: The main pod of a kind, among those its controllers made (all of them when unnamed).
_MAIN = {
    **dict.fromkeys(TRAINING, "training.kubeflow.org/job-role=master"),
    "rayjobs": "ray.io/node-type=head",
    "rayclusters": "ray.io/node-type=head",
}


def main_pod(store: Store, plural: str, namespace: str, name: str) -> str:
    """The name of a workload's main pod: a Job's or a Deployment's (one replica) current
    pod, a training job's master (chief, launcher), a RayJob's head; the one still running,
    else the last."""
    pods = owned_pods(store, by_plural(plural), namespace, name)
    pods = [p for p in pods if label_matcher(_MAIN.get(plural, ""))(p)]
    live = [
        p
        for p in pods
        if p["status"].get("phase") not in ("Succeeded", "Failed")
        and not p["metadata"].get("deletionTimestamp")
    ]
    if not (live or pods):
        raise LookupError(f"{plural} {namespace}/{name} has no pod")
    return str((live or pods)[-1]["metadata"]["name"])


@dataclass(frozen=True, slots=True)
class Step:
    """One scripted change, named for test output."""

    name: str
    run: Callable[[], None]


class Scenarios:
    """The sequences, for a workload by namespace and name (its main pod is looked up at
    each step)."""

    def __init__(self, kubelet: Kubelet, store: Store, plural: str = "jobs") -> None:
        self._kubelet, self._store, self._plural = kubelet, store, plural

    def of(self, plural: str) -> Scenarios:
        """The same sequences for the main pod of a workload of another kind (``plural``)."""
        return Scenarios(self._kubelet, self._store, plural)

    def _pod(self, namespace: str, job: str) -> str:
        return main_pod(self._store, self._plural, namespace, job)

    def _scheduled(self, namespace: str, job: str, node: str = "node-1") -> Step:
        kubelet = self._kubelet
        return Step(
            "scheduled", lambda: kubelet.schedule(namespace, self._pod(namespace, job), node)
        )

    def _running(self, namespace: str, job: str, lines: tuple[str, ...]) -> list[Step]:
        kubelet = self._kubelet

        def logs() -> None:
            if lines:
                kubelet.log(namespace, self._pod(namespace, job), *lines)

        return [
            Step("running", lambda: kubelet.start(namespace, self._pod(namespace, job))),
            Step("logs", logs),
        ]

    def succeeded(
        self,
        namespace: str,
        job: str,
        lines: tuple[str, ...] = ("done",),
        message: str | None = None,
    ) -> list[Step]:
        """Pending -> Running -> Succeeded: the container exits 0 (reason ``Completed``),
        leaving ``message`` as its termination message; the Job gets ``SuccessCriteriaMet``
        and ``Complete``."""
        kubelet = self._kubelet

        def succeeded() -> None:
            kubelet.terminate(namespace, self._pod(namespace, job), 0, message=message)

        return [
            self._scheduled(namespace, job),
            *self._running(namespace, job, lines),
            Step("succeeded", succeeded),
        ]

    def failed(
        self, namespace: str, job: str, exit_code: int = 1, lines: tuple[str, ...] = ("boom",)
    ) -> list[Step]:
        """The container exits non-zero (reason ``Error``): pod ``Failed``, Job ``Failed``
        with reason ``BackoffLimitExceeded``."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job),
            *self._running(namespace, job, lines),
            Step(
                "failed", lambda: kubelet.terminate(namespace, self._pod(namespace, job), exit_code)
            ),
        ]

    def oom_killed(
        self, namespace: str, job: str, lines: tuple[str, ...] = ("allocating",)
    ) -> list[Step]:
        """The container is killed for exceeding its memory limit: terminated, reason
        ``OOMKilled``, exit code 137
        (https://kubernetes.io/docs/tasks/configure-pod-container/assign-memory-resource/#exceed-a-container-s-memory-limit);
        pod ``Failed``, Job ``Failed`` (``BackoffLimitExceeded``); restarted in its pod where
        the restart policy says so."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job),
            *self._running(namespace, job, lines),
            Step(
                "oom-killed",
                lambda: kubelet.terminate(namespace, self._pod(namespace, job), 137, "OOMKilled"),
            ),
        ]

    def image_pull_fails(self, namespace: str, job: str) -> list[Step]:
        """The image cannot be pulled: waiting ``ErrImagePull``, then ``ImagePullBackOff``
        (https://kubernetes.io/docs/concepts/containers/images/#imagepullbackoff); the pod stays
        ``Pending`` and the Job active."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job),
            Step(
                "err-image-pull", lambda: kubelet.pull_failed(namespace, self._pod(namespace, job))
            ),
            Step(
                "image-pull-backoff",
                lambda: kubelet.pull_failed(namespace, self._pod(namespace, job), backoff=True),
            ),
        ]

    def evicted(
        self, namespace: str, job: str, lines: tuple[str, ...] = ("working",)
    ) -> list[Step]:
        """Node-pressure eviction: pod ``Failed`` whatever its restart policy,
        ``status.reason`` ``Evicted`` with a message, ``DisruptionTarget``; Job ``Failed``."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job),
            *self._running(namespace, job, lines),
            Step("evicted", lambda: kubelet.evict(namespace, self._pod(namespace, job))),
        ]

    def node_lost(self, namespace: str, job: str, node: str = "node-lost") -> list[Step]:
        """The pod's node goes away: pod not ``Ready`` (``node-not-ready``), then, once the
        taint manager evicts it (``node-lost``), ``DisruptionTarget``
        (``DeletionByTaintManager``), deleted, marked ``Failed`` by the pod garbage
        collector and removed; Job ``Failed``."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job, node),
            *self._running(namespace, job, ()),
            Step("node-not-ready", lambda: kubelet.node_not_ready(node)),
            Step("node-lost", lambda: kubelet.lose_node(node)),
        ]

    def unschedulable(self, namespace: str, job: str) -> list[Step]:
        """No node fits: ``PodScheduled`` False, reason ``Unschedulable``; the pod stays
        ``Pending`` (https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-conditions)."""
        kubelet = self._kubelet
        return [
            Step(
                "unschedulable", lambda: kubelet.unschedulable(namespace, self._pod(namespace, job))
            )
        ]
