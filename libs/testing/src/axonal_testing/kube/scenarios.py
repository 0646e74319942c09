"""Scripted sequences of a Job's pod, as a cluster produces them; replay with ``play``.

Each sequence follows https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/ for
the pod and https://kubernetes.io/docs/concepts/workloads/controllers/job/ for the Job, whose
conditions the Job controller stand-in sets from the pod's outcome (``backoffLimit: 0``
assumed: one failed pod fails the Job).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from axonal_testing.kube.jobs import JobController
from axonal_testing.kube.kubelet import Kubelet

__all__ = ["Scenarios", "Step"]


@dataclass(frozen=True, slots=True)
class Step:
    """One scripted change, named for test output."""

    name: str
    run: Callable[[], None]


class Scenarios:
    """The sequences, for a Job by namespace and name (its pod is looked up at each step)."""

    def __init__(self, kubelet: Kubelet, jobs: JobController) -> None:
        self._kubelet, self._jobs = kubelet, jobs

    def _pod(self, namespace: str, job: str) -> str:
        return self._jobs.current_pod(namespace, job)

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
        pod ``Failed``, Job ``Failed`` (``BackoffLimitExceeded``)."""
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
        """Node-pressure eviction: pod ``Failed``, ``status.reason`` ``Evicted`` with a
        message, ``DisruptionTarget``; Job ``Failed``."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job),
            *self._running(namespace, job, lines),
            Step("evicted", lambda: kubelet.evict(namespace, self._pod(namespace, job))),
        ]

    def node_lost(self, namespace: str, job: str, node: str = "node-lost") -> list[Step]:
        """The pod's node goes away: pod not ``Ready``, ``DisruptionTarget``
        (``DeletionByTaintManager``), deleted, marked ``Failed`` by the pod garbage
        collector and removed; Job ``Failed``."""
        kubelet = self._kubelet
        return [
            self._scheduled(namespace, job, node),
            *self._running(namespace, job, ()),
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
