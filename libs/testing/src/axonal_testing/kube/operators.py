"""Stand-ins for the operators behind the custom resources: the Kubeflow training operator,
KubeRay and the Dask operator. On create they make the pods their operator makes, labelled
the same way (so pod watches and log streaming work as against the real operator); the test
moves each job on with :meth:`Operators.training`, :meth:`Operators.ray_job` and
:meth:`Operators.dask_job`.
"""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.dask import DaskOperator
from axonal_testing.kube.kubelet import Kubelet
from axonal_testing.kube.kuberay import KubeRay
from axonal_testing.kube.resources import by_plural
from axonal_testing.kube.store import Store
from axonal_testing.kube.training import TrainingOperator

__all__ = ["Operators"]


class Operators:
    """The three operator stand-ins, behind one scripting API."""

    def __init__(self, store: Store, kubelet: Kubelet) -> None:
        self._training = TrainingOperator(store, kubelet)
        self._ray = KubeRay(store, kubelet)
        self._dask = DaskOperator(store, kubelet)
        for operator in (self._training, self._ray, self._dask):
            operator.subscribe(store)

    def pods(self, plural: str, namespace: str, name: str) -> list[dict[str, Any]]:
        """The pods made for a custom resource (and for what it owns)."""
        return self._training.pods(by_plural(plural), namespace, name)

    def set_status(self, plural: str, namespace: str, name: str, **fields: Any) -> None:
        """Merge ``fields`` into a custom resource's status."""
        self._training.set_status(by_plural(plural), namespace, name, **fields)

    def training(
        self, plural: str, namespace: str, name: str, state: str, exit_code: int = 1
    ) -> None:
        """Move a training job to ``Running``, ``Succeeded`` or ``Failed``."""
        self._training.training(plural, namespace, name, state, exit_code)

    def ray_job(
        self, namespace: str, name: str, deployment_status: str, job_status: str | None = None
    ) -> None:
        """Move a RayJob to ``Running``, ``Complete`` or ``Failed``."""
        self._ray.ray_job(namespace, name, deployment_status, job_status)

    def dask_job(self, namespace: str, name: str, job_status: str) -> None:
        """Move a DaskJob to ``ClusterCreated``, ``Running``, ``Successful`` or ``Failed``."""
        self._dask.dask_job(namespace, name, job_status)
