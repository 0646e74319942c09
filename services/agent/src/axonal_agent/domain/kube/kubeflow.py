"""``tfjob``, ``pytorchjob`` and ``mpijob`` as Kubeflow training-operator ``kubeflow.org/v1``
custom resources (pure).

Each replica field becomes a replica spec (``chief`` -> ``Chief``, ``ps`` -> ``PS``, ...) of
``replicas`` pods (1 when unset) whose main container has the name the operator looks for
(``tensorflow``, ``pytorch``, ``mpi``) and that restart ``Never``: with ``runPolicy``
``backoffLimit: 0``, a failed pod fails the job, and retries are the scheduler's. The run's
``cleanPodPolicy`` (``Running`` when unset: pods still running at the end, such as
parameter servers, are removed, finished ones kept for their logs) and ``schedulingPolicy``
go to ``runPolicy`` with the timeout (``activeDeadlineSeconds``) and the cluster's TTL.
PyTorch's ``elasticPolicy`` (Polyaxon's ``rdvz*`` spelled ``rdzv*``) and ``nProcPerNode``
(``nprocPerNode``), TensorFlow's ``successPolicy`` and ``enableDynamicWorker`` and MPI's
``slotsPerWorker`` are kept. The operator's admission rules are checked here: one PyTorch
master, one TensorFlow chief, one MPI launcher, and workers for an elastic policy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.containers import quantity
from axonal_agent.domain.kube.pods import PodRole, pod_template
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.workload import (
    MPI_JOB,
    PYTORCH_JOB,
    TF_JOB,
    Kind,
    Workload,
    count,
    deadline,
    metadata,
)

__all__ = ["KUBEFLOW_KINDS", "kubeflow"]


@dataclass(frozen=True, slots=True)
class _Flavour:
    kind: Kind
    specs: str
    container: str
    replicas: Mapping[str, str]
    single: frozenset[str]


KUBEFLOW_KINDS: dict[str, _Flavour] = {
    "tfjob": _Flavour(
        TF_JOB,
        "tfReplicaSpecs",
        "tensorflow",
        {"chief": "Chief", "ps": "PS", "worker": "Worker", "evaluator": "Evaluator"},
        frozenset({"chief"}),
    ),
    "pytorchjob": _Flavour(
        PYTORCH_JOB,
        "pytorchReplicaSpecs",
        "pytorch",
        {"master": "Master", "worker": "Worker"},
        frozenset({"master"}),
    ),
    "mpijob": _Flavour(
        MPI_JOB,
        "mpiReplicaSpecs",
        "mpi",
        {"launcher": "Launcher", "worker": "Worker"},
        frozenset({"launcher"}),
    ),
}
#: Polyaxon's spelling of the elastic policy -> the training operator's.
_ELASTIC = {
    "minReplicas": "minReplicas",
    "maxReplicas": "maxReplicas",
    "rdvzBackend": "rdzvBackend",
    "rdvzPort": "rdzvPort",
    "rdvzHost": "rdzvHost",
    "rdvzId": "rdzvId",
    "rdvzConf": "rdzvConf",
    "standalone": "standalone",
    "nProcPerNode": "nProcPerNode",
    "maxRestarts": "maxRestarts",
    "Metrics": "metrics",
}


def _replica_specs(
    run: Mapping[str, Any], flavour: _Flavour, target: Target, notes: list[str]
) -> dict[str, Any]:
    specs: dict[str, Any] = {}
    for field, replica_type in flavour.replicas.items():
        section = run.get(field)
        if section is None:
            continue
        if not isinstance(section, Mapping):
            raise InvalidRunError(f"{field}: expected a replica, got {section!r}")
        replicas = count(section.get("replicas"), f"{field}.replicas")
        if field in flavour.single and replicas != 1:
            raise InvalidRunError(f"{field}.replicas: there is one {field}, not {replicas}")
        role = PodRole(flavour.container, "Never")
        specs[replica_type] = {
            "replicas": replicas,
            "restartPolicy": "Never",
            "template": pod_template(section, target, role, notes, where=f"{field}."),
        }
    if not specs:
        names = ", ".join(flavour.replicas)
        raise InvalidRunError(f"{flavour.kind.kind} without replicas: set one of {names}")
    return specs


def _run_policy(run: Mapping[str, Any], target: Target) -> dict[str, Any]:
    policy: dict[str, Any] = {
        "backoffLimit": 0,
        "cleanPodPolicy": run.get("cleanPodPolicy") or "Running",
    }
    seconds = deadline(target)
    if seconds is not None:
        policy["activeDeadlineSeconds"] = seconds
    if target.cluster.ttl_seconds_after_finished is not None:
        policy["ttlSecondsAfterFinished"] = target.cluster.ttl_seconds_after_finished
    scheduling = dict(run.get("schedulingPolicy") or {})
    if scheduling.get("minResources"):
        scheduling["minResources"] = {
            str(name): quantity(amount, f"schedulingPolicy.minResources.{name}")
            for name, amount in scheduling["minResources"].items()
        }
    if scheduling:
        policy["schedulingPolicy"] = scheduling
    return policy


def _pytorch(run: Mapping[str, Any], spec: dict[str, Any]) -> None:
    elastic = run.get("elasticPolicy")
    if elastic:
        unknown = sorted(set(elastic) - set(_ELASTIC))
        if unknown:
            raise InvalidRunError(f"elasticPolicy.{unknown[0]}: not an elastic policy field")
        if "Worker" not in spec["pytorchReplicaSpecs"]:
            raise InvalidRunError("elasticPolicy: an elastic PyTorch job needs workers")
        if "nProcPerNode" in elastic and run.get("nProcPerNode") is not None:
            raise InvalidRunError(
                "elasticPolicy.nProcPerNode: set nProcPerNode once, outside the elastic policy"
            )
        spec["elasticPolicy"] = {_ELASTIC[key]: value for key, value in elastic.items()}
    if run.get("nProcPerNode") is not None:
        spec["nprocPerNode"] = str(run["nProcPerNode"])


def kubeflow(run: Mapping[str, Any], target: Target) -> Workload:
    """The training-operator job of a ``tfjob``, ``pytorchjob`` or ``mpijob`` section."""
    flavour = KUBEFLOW_KINDS[str(run.get("kind"))]
    notes: list[str] = []
    spec: dict[str, Any] = {
        flavour.specs: _replica_specs(run, flavour, target, notes),
        "runPolicy": _run_policy(run, target),
    }
    if flavour.kind is PYTORCH_JOB:
        _pytorch(run, spec)
    elif flavour.kind is TF_JOB:
        for key in ("successPolicy", "enableDynamicWorker"):
            if run.get(key) is not None:
                spec[key] = run[key]
    elif run.get("slotsPerWorker") is not None:
        spec["slotsPerWorker"] = count(run["slotsPerWorker"], "slotsPerWorker")
    manifest = {
        "apiVersion": flavour.kind.api_version,
        "kind": flavour.kind.kind,
        "metadata": metadata(target),
        "spec": spec,
    }
    return Workload(
        kind=flavour.kind,
        name=target.name,
        namespace=target.namespace,
        objects=(manifest,),
        selector=target.selector,
        notes=tuple(notes),
        enforces_timeout=target.timeout_seconds is not None,
    )
