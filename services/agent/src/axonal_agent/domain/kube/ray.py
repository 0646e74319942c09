"""A ``raycluster`` as a KubeRay ``ray.io/v1`` RayJob (with an ``entrypoint``) or RayCluster
(pure).

The cluster spec has the ``head`` as its head group (one pod, main container ``ray-head``)
and each of ``workers`` as a worker group of that name (main container ``ray-worker``):
``replicas`` (1 when unset) between ``minReplicas`` and ``maxReplicas`` (the replicas when
unset), ``rayStartParams`` as strings. ``rayVersion``, ``enableInTreeAutoscaling`` and
``autoscalerOptions`` are kept. A RayJob runs ``entrypoint`` once (``backoffLimit: 0``) with
``runtimeEnv`` (as ``runtimeEnvYAML``: JSON is YAML) and ``metadata``, within the run's
timeout (``activeDeadlineSeconds``), and deletes its cluster when it finishes
(``shutdownAfterJobFinishes``), the RayJob itself after the cluster's TTL. A RayCluster has
no entrypoint to run: it serves until it is deleted, so ``runtimeEnv`` and ``metadata`` have
nothing to apply to (a note says so).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.pods import PodRole, pod_template
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.workload import (
    RAY_CLUSTER,
    RAY_JOB,
    Workload,
    count,
    deadline,
    metadata,
)

__all__ = ["ray"]

_GROUP_NAME = re.compile(r"^[a-z0-9]([-a-z0-9]*[a-z0-9])?$")


def _start_params(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise InvalidRunError(f"{where}rayStartParams: expected a mapping, got {value!r}")
    return {
        str(key): str(item).lower() if isinstance(item, bool) else str(item)
        for key, item in value.items()
    }


def _head(run: Mapping[str, Any], target: Target, notes: list[str]) -> dict[str, Any]:
    head = run.get("head")
    if not isinstance(head, Mapping):
        raise InvalidRunError("head: a Ray cluster needs a head")
    if count(head.get("replicas"), "head.replicas") != 1:
        raise InvalidRunError("head.replicas: a Ray cluster has one head")
    return {
        "rayStartParams": _start_params(head.get("rayStartParams"), "head."),
        "template": pod_template(head, target, PodRole("ray-head"), notes, where="head."),
    }


def _worker_group(name: str, section: Any, target: Target, notes: list[str]) -> dict[str, Any]:
    where = f"workers.{name}."
    if not _GROUP_NAME.match(name) or len(name) > 63:
        raise InvalidRunError(f"workers.{name}: a worker group name must be a DNS-1123 label")
    if not isinstance(section, Mapping):
        raise InvalidRunError(f"workers.{name}: expected a worker group, got {section!r}")
    replicas = count(section.get("replicas"), f"{where}replicas", least=0)
    least = count(section.get("minReplicas"), f"{where}minReplicas", default=replicas, least=0)
    most = count(
        section.get("maxReplicas"), f"{where}maxReplicas", default=max(replicas, least), least=0
    )
    if not least <= replicas <= most:
        raise InvalidRunError(
            f"workers.{name}: replicas ({replicas}) must be between minReplicas ({least}) "
            f"and maxReplicas ({most})"
        )
    return {
        "groupName": name,
        "replicas": replicas,
        "minReplicas": least,
        "maxReplicas": most,
        "rayStartParams": _start_params(section.get("rayStartParams"), where),
        "template": pod_template(section, target, PodRole("ray-worker"), notes, where=where),
    }


def _cluster_spec(run: Mapping[str, Any], target: Target, notes: list[str]) -> dict[str, Any]:
    workers = run.get("workers") or {}
    if not isinstance(workers, Mapping):
        raise InvalidRunError(f"workers: expected worker groups by name, got {workers!r}")
    spec: dict[str, Any] = {
        "headGroupSpec": _head(run, target, notes),
        "workerGroupSpecs": [
            _worker_group(str(name), section, target, notes) for name, section in workers.items()
        ],
    }
    if run.get("rayVersion") is not None:
        spec["rayVersion"] = str(run["rayVersion"])
    if run.get("enableInTreeAutoscaling") is not None:
        spec["enableInTreeAutoscaling"] = bool(run["enableInTreeAutoscaling"])
    if run.get("autoscalerOptions"):
        spec["autoscalerOptions"] = dict(run["autoscalerOptions"])
    return spec


def _job_spec(run: Mapping[str, Any], target: Target, cluster: dict[str, Any]) -> dict[str, Any]:
    spec: dict[str, Any] = {
        "entrypoint": str(run["entrypoint"]),
        "rayClusterSpec": cluster,
        "shutdownAfterJobFinishes": True,
        "backoffLimit": 0,
    }
    if run.get("runtimeEnv"):
        spec["runtimeEnvYAML"] = json.dumps(run["runtimeEnv"], sort_keys=True)
    if run.get("metadata"):
        spec["metadata"] = {str(k): str(v) for k, v in run["metadata"].items()}
    seconds = deadline(target)
    if seconds is not None:
        spec["activeDeadlineSeconds"] = seconds
    if target.cluster.ttl_seconds_after_finished is not None:
        spec["ttlSecondsAfterFinished"] = target.cluster.ttl_seconds_after_finished
    return spec


def ray(run: Mapping[str, Any], target: Target) -> Workload:
    """The RayJob (or RayCluster, without an entrypoint) of a ``raycluster`` section."""
    notes: list[str] = []
    cluster = _cluster_spec(run, target, notes)
    if run.get("entrypoint"):
        kind, spec = RAY_JOB, _job_spec(run, target, cluster)
    else:
        kind, spec = RAY_CLUSTER, cluster
        notes.extend(
            f"{key}: ignored, a Ray cluster without an entrypoint has no job to give it to"
            for key in ("runtimeEnv", "metadata")
            if run.get(key)
        )
    manifest = {
        "apiVersion": kind.api_version,
        "kind": kind.kind,
        "metadata": metadata(target),
        "spec": spec,
    }
    return Workload(
        kind=kind,
        name=target.name,
        namespace=target.namespace,
        objects=(manifest,),
        selector=target.selector,
        notes=tuple(notes),
        enforces_timeout=kind is RAY_JOB and target.timeout_seconds is not None,
    )
