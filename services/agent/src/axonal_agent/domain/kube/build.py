"""The entry point of the manifest builders: a compiled run section to the objects of one
attempt, by the run's kind (pure)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.dask import dask
from axonal_agent.domain.kube.jobs import job, service
from axonal_agent.domain.kube.kubeflow import KUBEFLOW_KINDS, kubeflow
from axonal_agent.domain.kube.ray import ray
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.workload import Workload

__all__ = ["BUILDERS", "build_workload"]

Builder = Callable[[Mapping[str, Any], Target], Workload]

#: Run kinds -> their builder (the internal ``notifier``, ``tuner`` and ``cleaner`` are jobs).
BUILDERS: dict[str, Builder] = {
    "job": job,
    "notifier": job,
    "tuner": job,
    "cleaner": job,
    "service": service,
    **dict.fromkeys(KUBEFLOW_KINDS, kubeflow),
    "raycluster": ray,
    "daskcluster": dask,
}


def build_workload(run: Mapping[str, Any], target: Target) -> Workload:
    """The Kubernetes objects of one attempt of ``run`` (``ExecuteRun.run``, a compiled run
    section) on ``target``, primary first. :class:`InvalidRunError` names the field that
    cannot be carried out on Kubernetes."""
    kind = run.get("kind")
    builder = BUILDERS.get(str(kind))
    if builder is None:
        if kind == "dag":
            raise InvalidRunError("kind: a dag runs its operations, it is not executed itself")
        raise InvalidRunError(f"kind: {kind!r} cannot run on Kubernetes")
    return builder(run, target)
