"""What the API server fills in on create (defaulting) and the checks it makes (validation),
for the fields the executor relies on; and how controllers make pods from templates."""

from __future__ import annotations

import base64
import copy
from collections.abc import Callable
from typing import Any

from axonal_testing.kube.resources import Resource, by_plural
from axonal_testing.kube.status import invalid
from axonal_testing.kube.store import Store

__all__ = ["PREPARE", "create_pod", "owner_reference"]

POD = by_plural("pods")


def _pod(res: Resource, pod: dict[str, Any]) -> None:
    spec = pod.setdefault("spec", {})
    if not spec.get("containers"):
        name = pod["metadata"]["name"]
        raise invalid(res, name, "spec.containers", "FieldValueRequired", "Required value")
    spec.setdefault("restartPolicy", "Always")
    spec.setdefault("terminationGracePeriodSeconds", 30)
    spec.setdefault("schedulerName", "default-scheduler")
    # https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-phase: "Pending:
    # The Pod has been accepted by the Kubernetes cluster, but one or more of the containers
    # has not been set up and made ready to run."
    pod["status"] = {"phase": "Pending", "qosClass": _qos(spec["containers"])}


def _qos(containers: list[dict[str, Any]]) -> str:
    """https://kubernetes.io/docs/concepts/workloads/pods/pod-qos/"""
    resources = [c.get("resources") or {} for c in containers]
    if not any(r.get("requests") or r.get("limits") for r in resources):
        return "BestEffort"

    def guaranteed(r: dict[str, Any]) -> bool:
        limits, requests = r.get("limits") or {}, r.get("requests") or r.get("limits") or {}
        return all(limits.get(k) and limits.get(k) == requests.get(k) for k in ("cpu", "memory"))

    return "Guaranteed" if all(guaranteed(r) for r in resources) else "Burstable"


def _containers(res: Resource, name: str, template: dict[str, Any]) -> None:
    if not (template.get("spec") or {}).get("containers"):
        field = "spec.template.spec.containers"
        raise invalid(res, name, field, "FieldValueRequired", "Required value")


def _job(res: Resource, job: dict[str, Any]) -> None:
    """Jobs get a selector on their uid and these labels on the pod template
    (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-selector and
    https://kubernetes.io/docs/reference/labels-annotations-taints/#batchkubernetesiojob-name,
    #batchkubernetesiocontroller-uid, #job-name, #controller-uid); ``backoffLimit`` defaults
    to 6 (https://kubernetes.io/docs/concepts/workloads/controllers/job/#pod-backoff-failure-policy)."""
    meta, spec = job["metadata"], job.setdefault("spec", {})
    template = spec.setdefault("template", {})
    _containers(res, meta["name"], template)
    policy = template.get("spec", {}).get("restartPolicy")
    if policy not in ("Never", "OnFailure"):
        message = f'Unsupported value: "{policy or ""}": supported values: "OnFailure", "Never"'
        raise invalid(
            res, meta["name"], "spec.template.spec.restartPolicy", "FieldValueNotSupported", message
        )
    uid, name = meta["uid"], meta["name"]
    labels = {
        "batch.kubernetes.io/controller-uid": uid,
        "batch.kubernetes.io/job-name": name,
        "controller-uid": uid,
        "job-name": name,
    }
    if not spec.get("manualSelector"):
        spec["selector"] = {"matchLabels": {"batch.kubernetes.io/controller-uid": uid}}
        template.setdefault("metadata", {}).setdefault("labels", {}).update(labels)
    for key, value in (
        ("backoffLimit", 6),
        ("completions", 1),
        ("parallelism", 1),
        ("completionMode", "NonIndexed"),
        ("suspend", False),
    ):
        spec.setdefault(key, value)
    job["status"] = {}


def _deployment(res: Resource, deployment: dict[str, Any]) -> None:
    """apps/v1 requires a selector that matches the template's labels
    (https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#selector)."""
    name, spec = deployment["metadata"]["name"], deployment.setdefault("spec", {})
    selector = (spec.get("selector") or {}).get("matchLabels")
    if not selector:
        raise invalid(res, name, "spec.selector", "FieldValueRequired", "Required value")
    labels = spec.get("template", {}).get("metadata", {}).get("labels") or {}
    if any(labels.get(k) != v for k, v in selector.items()):
        message = "Invalid value: `selector` does not match template `labels`"
        raise invalid(res, name, "spec.template.metadata.labels", "FieldValueInvalid", message)
    _containers(res, name, spec.get("template") or {})
    spec.setdefault("replicas", 1)
    spec.setdefault("progressDeadlineSeconds", 600)
    spec.setdefault("revisionHistoryLimit", 10)
    deployment["status"] = {}


def _service(res: Resource, service: dict[str, Any]) -> None:
    spec = service.setdefault("spec", {})
    spec.setdefault("type", "ClusterIP")
    if spec.get("clusterIP") != "None":
        spec["clusterIP"] = "10.96.0.42"
    spec["clusterIPs"] = [spec["clusterIP"]]


def _secret(res: Resource, secret: dict[str, Any]) -> None:
    """``stringData`` "is merged into the data field on write"
    (https://kubernetes.io/docs/concepts/configuration/secret/#working-with-secrets)."""
    secret.setdefault("type", "Opaque")
    for key, value in (secret.pop("stringData", None) or {}).items():
        secret.setdefault("data", {})[key] = base64.b64encode(value.encode()).decode()


PREPARE: dict[str, Callable[[Resource, dict[str, Any]], None]] = {
    "pods": _pod,
    "jobs": _job,
    "deployments": _deployment,
    "services": _service,
    "secrets": _secret,
}


def owner_reference(res: Resource, owner: dict[str, Any]) -> dict[str, Any]:
    """A controller's reference to ``owner``, as controllers set it on what they create."""
    meta = owner["metadata"]
    return {
        "apiVersion": res.api_version,
        "kind": res.kind,
        "name": meta["name"],
        "uid": meta["uid"],
        "controller": True,
        "blockOwnerDeletion": True,
    }


def create_pod(
    store: Store,
    owner_res: Resource,
    owner: dict[str, Any],
    template: dict[str, Any],
    *,
    name: str = "",
    labels: dict[str, str] | None = None,
    finalizers: tuple[str, ...] = (),
) -> dict[str, Any]:
    """A pod from a pod template, owned by ``owner`` (named ``name`` or ``<owner>-<suffix>``)."""
    meta = copy.deepcopy(template.get("metadata") or {})
    meta["labels"] = {**(meta.get("labels") or {}), **(labels or {})}
    meta["ownerReferences"] = [owner_reference(owner_res, owner)]
    if finalizers:
        meta["finalizers"] = list(finalizers)
    if name:
        meta["name"] = name
    else:
        meta["generateName"] = f"{owner['metadata']['name']}-"
    body = {"metadata": meta, "spec": copy.deepcopy(template.get("spec") or {})}
    namespace = owner["metadata"]["namespace"]
    return store.create(POD, namespace, body, lambda pod: _pod(POD, pod))
