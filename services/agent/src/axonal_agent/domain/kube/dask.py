"""A ``daskcluster`` as a Dask Kubernetes operator ``kubernetes.dask.org/v1`` DaskCluster, with
a DaskAutoscaler when it sets ``minReplicas``/``maxReplicas`` (pure).

The spec's ``daskcluster`` has a ``scheduler`` and a ``worker`` and no job of its own, so it
is a cluster, not a DaskJob: it serves until it is deleted (other runs connect to it). The
operator runs each part in a Deployment, so their pods restart ``Always`` (another policy is
replaced, with a note), and copies the cluster's labels onto them. The scheduler's Service
exposes its container's ports (``tcp-comm`` 8786 and ``http-dashboard`` 8787 when it declares
none); the worker has ``replicas`` pods (1 when unset).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.pods import PodRole, pod_template
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.workload import (
    DASK_AUTOSCALER,
    DASK_CLUSTER,
    Workload,
    count,
    metadata,
)

__all__ = ["dask"]

_DEFAULT_PORTS = (
    {"name": "tcp-comm", "containerPort": 8786, "protocol": "TCP"},
    {"name": "http-dashboard", "containerPort": 8787, "protocol": "TCP"},
)


def _part(
    run: Mapping[str, Any], field: str, target: Target, notes: list[str]
) -> tuple[Mapping[str, Any], dict[str, Any]]:
    section = run.get(field)
    if not isinstance(section, Mapping):
        raise InvalidRunError(f"{field}: a Dask cluster needs a {field}")
    role = PodRole(field, "Always")
    template = pod_template(section, target, role, notes, where=f"{field}.")
    part: dict[str, Any] = {"metadata": template["metadata"], "spec": template["spec"]}
    return section, part


def _scheduler_service(name: str, container: dict[str, Any]) -> dict[str, Any]:
    if not container.get("ports"):
        container["ports"] = [dict(port) for port in _DEFAULT_PORTS]
    ports = []
    for index, port in enumerate(container["ports"]):
        number = port.get("containerPort")
        entry: dict[str, Any] = {
            "name": str(port.get("name") or f"port-{index}"),
            "port": number,
            "targetPort": port.get("name") or number,
            "protocol": port.get("protocol") or "TCP",
        }
        ports.append(entry)
    selector = {"dask.org/cluster-name": name, "dask.org/component": "scheduler"}
    return {"type": "ClusterIP", "selector": selector, "ports": ports}


def dask(run: Mapping[str, Any], target: Target) -> Workload:
    """The DaskCluster (and DaskAutoscaler) of a ``daskcluster`` section."""
    notes: list[str] = []
    scheduler_section, scheduler = _part(run, "scheduler", target, notes)
    if count(scheduler_section.get("replicas"), "scheduler.replicas") != 1:
        raise InvalidRunError("scheduler.replicas: a Dask cluster has one scheduler")
    scheduler["service"] = _scheduler_service(target.name, scheduler["spec"]["containers"][0])
    worker_section, worker = _part(run, "worker", target, notes)
    replicas = count(worker_section.get("replicas"), "worker.replicas", least=0)
    worker["replicas"] = replicas
    cluster = {
        "apiVersion": DASK_CLUSTER.api_version,
        "kind": DASK_CLUSTER.kind,
        "metadata": metadata(target),
        "spec": {"scheduler": scheduler, "worker": worker},
    }
    objects: list[dict[str, Any]] = [cluster]
    least, most = run.get("minReplicas"), run.get("maxReplicas")
    if least is not None or most is not None:
        given = count(most, "maxReplicas", default=replicas, least=0)
        low = count(least, "minReplicas", default=min(replicas, given), least=0)
        high = count(most, "maxReplicas", default=max(replicas, low), least=0)
        if low > high:
            raise InvalidRunError(f"minReplicas ({low}) is more than maxReplicas ({high})")
        objects.append(
            {
                "apiVersion": DASK_AUTOSCALER.api_version,
                "kind": DASK_AUTOSCALER.kind,
                "metadata": metadata(target),
                "spec": {"cluster": target.name, "minimum": low, "maximum": high},
            }
        )
    return Workload(
        kind=DASK_CLUSTER,
        name=target.name,
        namespace=target.namespace,
        objects=tuple(objects),
        selector=target.selector,
        notes=tuple(notes),
    )
