"""What the operator stand-ins share: their pods, their status writes, and pod steps."""

from __future__ import annotations

from typing import Any

from axonal_testing.kube.jobs import controller_of
from axonal_testing.kube.kubelet import Kubelet
from axonal_testing.kube.resources import Resource, by_plural
from axonal_testing.kube.store import Store

__all__ = ["Operator", "owned_pods"]

POD = by_plural("pods")


def owned_pods(store: Store, res: Resource, namespace: str, name: str) -> list[dict[str, Any]]:
    """The pods an object's controllers made: its own, and those of what it owns (a
    Deployment's ReplicaSet, a RayJob's RayCluster and submitter Job, a DaskJob's
    DaskCluster), by name."""
    owner = store.require(res, namespace, name)
    uids = {owner["metadata"]["uid"]} | {
        dep["metadata"]["uid"]
        for dep_res, dep in store.dependents(owner["metadata"]["uid"])
        if dep_res is not POD
    }
    return store.find(POD, namespace, lambda p: (controller_of(p) or {}).get("uid") in uids)


class Operator:
    """An operator stand-in: it watches the store and drives pods through the kubelet."""

    def __init__(self, store: Store, kubelet: Kubelet) -> None:
        self._store, self._kubelet = store, kubelet

    def pods(self, res: Resource, namespace: str, name: str) -> list[dict[str, Any]]:
        """The pods made for a custom resource (:func:`owned_pods`)."""
        return owned_pods(self._store, res, namespace, name)

    def set_status(self, res: Resource, namespace: str, name: str, **fields: Any) -> None:
        """Merge ``fields`` into the object's status."""
        self._store.update(
            res, namespace, name, lambda o: o.setdefault("status", {}).update(fields)
        )

    def move_pod(self, pod: dict[str, Any], state: str, exit_code: int) -> None:
        """Start a pending pod (``Running``), or end a running one: exit 0 for a success
        state, ``exit_code`` for ``Failed``."""
        ns, name = pod["metadata"]["namespace"], pod["metadata"]["name"]
        phase = pod.get("status", {}).get("phase")
        if state == "Running" and phase == "Pending":
            if not pod["spec"].get("nodeName"):
                self._kubelet.schedule(ns, name)
            self._kubelet.start(ns, name)
        elif state in ("Succeeded", "Failed", "Complete", "Successful") and phase == "Running":
            self._kubelet.terminate(ns, name, 0 if state != "Failed" else exit_code)
