"""A ``job`` as a ``batch/v1`` Job; a ``service`` as a Deployment and its Service (pure).

A Job runs its pod once (``backoffLimit: 0``, ``restartPolicy: Never``): retries are new
attempts, the scheduler's call. The run's timeout is its ``activeDeadlineSeconds``; the
cluster's ``ttl_seconds_after_finished`` removes it (and its pods, their logs) later.

A service keeps its declared ports, served at the root: ``{{ globals.ports[i] }}`` and
``{{ globals.base_url }}`` become them and ``/``, and ``AXONAL_SERVICE_*`` tell the process
its URL, ``http://<name>.<namespace>.svc:<port>/`` (the Service's). A pod is ready once its
first port answers (a TCP connect), or the operation's ``termination.probe`` (an HTTP GET of
its path, or a command) passes, unless its container has a ``readinessProbe`` of its own.
``replicas`` pods run it; ``isExternal`` makes the Service a LoadBalancer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from axonal_agent.domain.command import InvalidRunError
from axonal_agent.domain.kube.pods import PodRole, pod_template
from axonal_agent.domain.kube.target import Target
from axonal_agent.domain.kube.workload import (
    DEPLOYMENT,
    JOB,
    Workload,
    count,
    deadline,
    metadata,
)
from axonal_agent.domain.service import ServiceSpec, endpoints, service_env, service_spec
from axonal_spec.service_values import fill_service_values

__all__ = ["MAIN_CONTAINER", "job", "service"]

MAIN_CONTAINER = "main"


def job(run: Mapping[str, Any], target: Target) -> Workload:
    """The Job of a ``job`` run section (or of an internal job kind)."""
    notes: list[str] = []
    spec: dict[str, Any] = {
        "backoffLimit": 0,
        "template": pod_template(run, target, PodRole(MAIN_CONTAINER, "Never"), notes),
    }
    seconds = deadline(target)
    if seconds is not None:
        spec["activeDeadlineSeconds"] = seconds
    if target.cluster.ttl_seconds_after_finished is not None:
        spec["ttlSecondsAfterFinished"] = target.cluster.ttl_seconds_after_finished
    manifest = {"apiVersion": JOB.api_version, "kind": JOB.kind, "metadata": metadata(target)}
    return Workload(
        kind=JOB,
        name=target.name,
        namespace=target.namespace,
        objects=({**manifest, "spec": spec},),
        selector=target.selector,
        notes=tuple(notes),
        enforces_timeout=seconds is not None,
    )


def _readiness(spec: ServiceSpec, probe: Mapping[str, Any]) -> dict[str, Any]:
    command = (probe.get("exec") or {}).get("command") if isinstance(probe, Mapping) else None
    if command:
        return {"exec": {"command": [str(part) for part in command]}}
    port = spec.ports[spec.probe_index]
    if spec.http_path is not None:
        return {"httpGet": {"path": spec.http_path, "port": port}, "periodSeconds": 5}
    return {"tcpSocket": {"port": port}, "periodSeconds": 5}


def service(run: Mapping[str, Any], target: Target) -> Workload:
    """The Deployment (primary) and Service of a ``service`` run section."""
    spec = service_spec(run, target.probe)
    if spec is None or not spec.ports:
        raise InvalidRunError("ports: a service needs at least one port")
    host = f"{target.name}.{target.namespace}.svc"
    extra = [{"name": k, "value": v} for k, v in service_env(spec.ports, host).items()]
    notes: list[str] = []
    section = fill_service_values(dict(run), list(spec.ports), "/")
    template = pod_template(
        section, target, PodRole(MAIN_CONTAINER, "Always"), notes, extra_env=extra
    )
    main = template["spec"]["containers"][0]
    declared = {port.get("containerPort") for port in main.get("ports", [])}
    added = [{"containerPort": p, "protocol": "TCP"} for p in spec.ports if p not in declared]
    if added:
        main["ports"] = [*main.get("ports", []), *added]
    main.setdefault("readinessProbe", _readiness(spec, target.probe))
    replicas = count(run.get("replicas"), "replicas")
    deployment = {
        "apiVersion": DEPLOYMENT.api_version,
        "kind": DEPLOYMENT.kind,
        "metadata": metadata(target),
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": dict(target.selector)},
            "template": template,
        },
    }
    ports = [
        {"name": f"port-{index}", "port": port, "targetPort": port, "protocol": "TCP"}
        for index, port in enumerate(spec.ports)
    ]
    kubernetes_service = {
        "apiVersion": "v1",
        "kind": "Service",
        "metadata": metadata(target),
        "spec": {
            "type": "LoadBalancer" if run.get("isExternal") is True else "ClusterIP",
            "selector": dict(target.selector),
            "ports": ports,
        },
    }
    return Workload(
        kind=DEPLOYMENT,
        name=target.name,
        namespace=target.namespace,
        objects=(deployment, kubernetes_service),
        selector=target.selector,
        endpoints=endpoints(spec.ports, spec.ports, host),
        notes=tuple(notes),
    )
