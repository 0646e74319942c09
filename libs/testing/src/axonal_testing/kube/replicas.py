"""Minimal Deployment and ReplicaSet controllers.

https://kubernetes.io/docs/concepts/workloads/controllers/deployment/: a Deployment owns a
ReplicaSet named ``<deployment>-<pod-template-hash>`` whose pods carry the
``pod-template-hash`` label; the ReplicaSet keeps ``spec.replicas`` pods
(https://kubernetes.io/docs/concepts/workloads/controllers/replicaset/). The Deployment is
``Available`` (reason ``MinimumReplicasAvailable``) once its pods are ready and
``Progressing`` with reason ``NewReplicaSetAvailable`` when the rollout is done
(#deployment-status).
"""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

from axonal_testing.kube.defaults import create_pod, owner_reference
from axonal_testing.kube.gc import delete
from axonal_testing.kube.jobs import controller_of
from axonal_testing.kube.kubelet import set_condition
from axonal_testing.kube.resources import Resource, by_plural
from axonal_testing.kube.store import Store
from axonal_testing.kube.watchers import Change

__all__ = ["ReplicaControllers"]

DEPLOYMENT, REPLICASET, POD = by_plural("deployments"), by_plural("replicasets"), by_plural("pods")
_ALPHABET = "bcdfghjklmnpqrstvwxz2456789"


def _ready(pod: dict[str, Any]) -> bool:
    conditions = pod.get("status", {}).get("conditions") or []
    return any(c["type"] == "Ready" and c["status"] == "True" for c in conditions)


def _template_hash(template: dict[str, Any]) -> str:
    digest = hashlib.sha256(json.dumps(template, sort_keys=True).encode()).digest()
    return "".join(_ALPHABET[b % len(_ALPHABET)] for b in digest[:10])


class ReplicaControllers:
    """The Deployment controller and the ReplicaSet controller."""

    def __init__(self, store: Store) -> None:
        self._store = store
        store.subscribe(self.on_change)

    def _owned(self, res: Resource, namespace: str, uid: str) -> list[dict[str, Any]]:
        return self._store.find(
            res, namespace, lambda o: (controller_of(o) or {}).get("uid") == uid
        )

    def on_change(self, change: Change) -> None:
        """Reconcile the Deployment or ReplicaSet concerned by a change."""
        meta = change.obj["metadata"]
        ns = meta["namespace"]
        if change.res is DEPLOYMENT and change.type != "DELETED":
            self._deployment(ns, meta["name"])
        elif change.res is REPLICASET:
            if change.type != "DELETED":
                self._replicaset(ns, meta["name"])
            ref = controller_of(change.obj)
            if ref is not None and ref["kind"] == "Deployment":
                self._deployment(ns, ref["name"])
        elif change.res is POD:
            ref = controller_of(change.obj)
            if ref is not None and ref["kind"] == "ReplicaSet":
                self._replicaset(ns, ref["name"])

    def _deployment(self, namespace: str, name: str) -> None:
        deployment = self._store.get(DEPLOYMENT, namespace, name)
        if deployment is None or deployment["metadata"].get("deletionTimestamp"):
            return
        spec, uid = deployment["spec"], deployment["metadata"]["uid"]
        sets = self._owned(REPLICASET, namespace, uid)
        status = copy.deepcopy(deployment.get("status") or {})
        conditions = status.setdefault("conditions", [])
        if not sets:
            template = copy.deepcopy(spec["template"])
            pod_hash = _template_hash(template)
            template.setdefault("metadata", {}).setdefault("labels", {})["pod-template-hash"] = (
                pod_hash
            )
            selector = {
                "matchLabels": {**spec["selector"]["matchLabels"], "pod-template-hash": pod_hash}
            }
            body = {
                "metadata": {
                    "name": f"{name}-{pod_hash}",
                    "labels": template["metadata"]["labels"],
                    "ownerReferences": [owner_reference(DEPLOYMENT, deployment)],
                },
                "spec": {"replicas": spec["replicas"], "selector": selector, "template": template},
            }
            created = self._store.create(REPLICASET, namespace, body)
            rs_name = created["metadata"]["name"]
            set_condition(
                conditions,
                "Progressing",
                "True",
                "NewReplicaSetCreated",
                f'Created new replica set "{rs_name}"',
            )
            sets = [self._store.require(REPLICASET, namespace, rs_name)]
        rs = sets[0]
        rs_status, rs_name = rs.get("status") or {}, rs["metadata"]["name"]
        ready = rs_status.get("readyReplicas", 0)
        status.update(
            observedGeneration=deployment["metadata"]["generation"],
            replicas=rs_status.get("replicas", 0),
            updatedReplicas=rs_status.get("replicas", 0),
            readyReplicas=ready,
            availableReplicas=ready,
            unavailableReplicas=max(spec["replicas"] - ready, 0),
        )
        if ready >= spec["replicas"]:
            set_condition(
                conditions,
                "Available",
                "True",
                "MinimumReplicasAvailable",
                "Deployment has minimum availability.",
            )
            set_condition(
                conditions,
                "Progressing",
                "True",
                "NewReplicaSetAvailable",
                f'ReplicaSet "{rs_name}" has successfully progressed.',
            )
        else:
            set_condition(
                conditions,
                "Available",
                "False",
                "MinimumReplicasUnavailable",
                "Deployment does not have minimum availability.",
            )
        status = {k: v for k, v in status.items() if v or k == "conditions"}
        if status != deployment.get("status"):
            self._store.update(DEPLOYMENT, namespace, name, lambda d: d.update(status=status))

    def _replicaset(self, namespace: str, name: str) -> None:
        rs = self._store.get(REPLICASET, namespace, name)
        if rs is None or rs["metadata"].get("deletionTimestamp"):
            return
        pods = [
            p
            for p in self._owned(POD, namespace, rs["metadata"]["uid"])
            if not p["metadata"].get("deletionTimestamp")
            and p.get("status", {}).get("phase") not in ("Succeeded", "Failed")
        ]
        want = rs["spec"]["replicas"]
        for _ in range(want - len(pods)):
            pods.append(create_pod(self._store, REPLICASET, rs, rs["spec"]["template"]))
        for extra in pods[want:]:
            delete(self._store, POD, namespace, extra["metadata"]["name"], "Background")
        pods = pods[:want]
        ready = sum(
            _ready(self._store.get(POD, namespace, p["metadata"]["name"]) or p) for p in pods
        )
        status = {
            "replicas": len(pods),
            "fullyLabeledReplicas": len(pods),
            "readyReplicas": ready,
            "availableReplicas": ready,
            "observedGeneration": rs["metadata"]["generation"],
        }
        status = {k: v for k, v in status.items() if v or k == "replicas"}
        if status != rs.get("status"):
            self._store.update(REPLICASET, namespace, name, lambda r: r.update(status=status))
