"""What an attempt is on Kubernetes: the objects to create, and the kind to watch (pure)."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.target import Target

__all__ = [
    "DASK_AUTOSCALER",
    "DASK_CLUSTER",
    "DEPLOYMENT",
    "JOB",
    "MPI_JOB",
    "PYTORCH_JOB",
    "RAY_CLUSTER",
    "RAY_JOB",
    "SERVICE",
    "TF_JOB",
    "Kind",
    "Workload",
    "count",
    "deadline",
    "metadata",
]


@dataclass(frozen=True, slots=True)
class Kind:
    """A resource kind as the API serves it: ``group`` is empty for the core group."""

    api_version: str
    kind: str
    plural: str

    @property
    def group(self) -> str:
        return self.api_version.rpartition("/")[0]

    @property
    def version(self) -> str:
        return self.api_version.rpartition("/")[2]


JOB = Kind("batch/v1", "Job", "jobs")
DEPLOYMENT = Kind("apps/v1", "Deployment", "deployments")
SERVICE = Kind("v1", "Service", "services")
TF_JOB = Kind("kubeflow.org/v1", "TFJob", "tfjobs")
PYTORCH_JOB = Kind("kubeflow.org/v1", "PyTorchJob", "pytorchjobs")
MPI_JOB = Kind("kubeflow.org/v1", "MPIJob", "mpijobs")
RAY_JOB = Kind("ray.io/v1", "RayJob", "rayjobs")
RAY_CLUSTER = Kind("ray.io/v1", "RayCluster", "rayclusters")
DASK_CLUSTER = Kind("kubernetes.dask.org/v1", "DaskCluster", "daskclusters")
DASK_AUTOSCALER = Kind("kubernetes.dask.org/v1", "DaskAutoscaler", "daskautoscalers")


@dataclass(frozen=True, slots=True)
class Workload:
    """An attempt's objects, to create in this order; the first, of :attr:`kind`, is the one
    to watch (and to delete: the others are removed with it or are deleted by name).

    ``selector``: the labels of all its pods (whoever creates them). ``endpoints``: a
    service's URLs by declared port. ``notes``: what of the run was changed to fit Kubernetes,
    for the run's logs. ``enforces_timeout``: Kubernetes ends it at the target's timeout
    (else the executor has to).
    """

    kind: Kind
    name: str
    namespace: str
    objects: tuple[dict[str, Any], ...]
    selector: Mapping[str, str]
    endpoints: Mapping[str, str] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    enforces_timeout: bool = False

    @property
    def primary(self) -> dict[str, Any]:
        return self.objects[0]

    @property
    def label_selector(self) -> str:
        """:attr:`selector` as a list call's ``label_selector``."""
        return ",".join(f"{key}={value}" for key, value in self.selector.items())


def metadata(target: Target, name: str | None = None) -> dict[str, Any]:
    """The metadata of an object of the attempt (``name``: the workload's by default)."""
    return {"name": name or target.name, "namespace": target.namespace, "labels": target.labels}


def deadline(target: Target) -> int | None:
    """The target's timeout in whole seconds (at least 1), for ``activeDeadlineSeconds``."""
    if target.timeout_seconds is None:
        return None
    return max(1, math.ceil(target.timeout_seconds))


def count(value: Any, where: str, *, default: int = 1, least: int = 1) -> int:
    """A replica count: an integer of at least ``least`` (``default`` when unset)."""
    if value is None:
        return default
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise InvalidRunError(f"{where}: expected a whole number of at least {least}: {value!r}")
    return value
