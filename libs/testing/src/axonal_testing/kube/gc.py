"""Deletion and the garbage collector: propagationPolicy Background, Foreground and Orphan.

https://kubernetes.io/docs/concepts/architecture/garbage-collection/#cascading-deletion:

- Foreground: "the owner object first enters a deletion in progress state" (its
  ``deletionTimestamp`` is set and the ``foregroundDeletion`` finalizer added), the garbage
  collector deletes the dependents, then the owner;
- Background: "the Kubernetes API server deletes the owner object immediately and the
  garbage collector controller cleans up the dependent objects in the background";
- Orphan: the ``orphan`` finalizer makes the garbage collector remove the owner reference
  from the dependents, which are left behind, before the owner is deleted.

Here the garbage collector acts at once, inside the request that caused the change.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from axonal_testing.kube.resources import Resource, by_kind
from axonal_testing.kube.status import bad_request
from axonal_testing.kube.store import Store, now
from axonal_testing.kube.watchers import Change

__all__ = ["Deletion", "GarbageCollector", "delete"]

ORPHAN, FOREGROUND = "orphan", "foregroundDeletion"
POLICIES = ("Background", "Foreground", "Orphan")


@dataclass(frozen=True, slots=True)
class Deletion:
    """A DELETE the double received: what was asked for and the policy applied."""

    resource: str
    namespace: str
    name: str
    requested: str | None
    policy: str


def delete(
    store: Store, res: Resource, namespace: str, name: str, policy: str, grace: int | None = None
) -> dict[str, Any]:
    """The API server's part of a DELETE: mark the object for deletion, or delete it now.

    A pod on a node keeps running for its grace period (``deletionGracePeriodSeconds``,
    https://kubernetes.io/docs/concepts/workloads/pods/pod-lifecycle/#pod-termination) until
    the kubelet has stopped it; one that is not scheduled or has finished goes at once.
    """
    if policy not in POLICIES:
        raise bad_request(f"unsupported propagationPolicy: {policy!r}")
    obj = store.require(res, namespace, name)
    meta = obj["metadata"]
    if meta.get("deletionTimestamp"):
        return obj
    if res.plural == "pods":
        running = obj.get("spec", {}).get("nodeName") and obj.get("status", {}).get(
            "phase"
        ) not in ("Succeeded", "Failed")
        default = obj.get("spec", {}).get("terminationGracePeriodSeconds", 30)
        grace = (default if grace is None else grace) if running else 0
    else:
        grace = None
    finalizer = {"Orphan": ORPHAN, "Foreground": FOREGROUND}.get(policy)

    def mark(o: dict[str, Any]) -> None:
        m = o["metadata"]
        if finalizer and finalizer not in m.setdefault("finalizers", []):
            m["finalizers"].append(finalizer)
        m["deletionTimestamp"] = now()
        if grace is not None:
            m["deletionGracePeriodSeconds"] = grace

    return store.update(res, namespace, name, mark)


class GarbageCollector:
    """Deletes the dependents of deleted owners, or orphans them, as the policy says."""

    def __init__(self, store: Store) -> None:
        self._store = store
        store.subscribe(self.on_change)

    def on_change(self, change: Change) -> None:
        """React to one write."""
        meta = change.obj["metadata"]
        if change.type == "DELETED":
            self._collect(meta["uid"])
            self._release_owners(change.obj)
            return
        finalizers = meta.get("finalizers") or []
        if not meta.get("deletionTimestamp"):
            return
        if ORPHAN in finalizers:
            self._orphan(change.res, change.obj)
        elif FOREGROUND in finalizers:
            self._delete_dependents(change.res, change.obj)

    def _collect(self, uid: str) -> None:
        """Delete (in the background) the dependents whose owners are all gone."""
        for res, dep in self._store.dependents(uid):
            if not any(self._owner(dep, ref) for ref in dep["metadata"]["ownerReferences"]):
                m = dep["metadata"]
                if self._store.get(res, m["namespace"], m["name"]) is not None:
                    delete(self._store, res, m["namespace"], m["name"], "Background")

    def _orphan(self, res: Resource, owner: dict[str, Any]) -> None:
        meta = owner["metadata"]
        for dep_res, dep in self._store.dependents(meta["uid"]):

            def drop(o: dict[str, Any]) -> None:
                refs = [r for r in o["metadata"]["ownerReferences"] if r["uid"] != meta["uid"]]
                o["metadata"]["ownerReferences"] = refs
                if not refs:  # an empty list is omitted, as the API server does
                    del o["metadata"]["ownerReferences"]

            self._store.update(dep_res, dep["metadata"]["namespace"], dep["metadata"]["name"], drop)
        self._unfinalize(res, meta["namespace"], meta["name"], ORPHAN)

    def _delete_dependents(self, res: Resource, owner: dict[str, Any]) -> None:
        meta = owner["metadata"]
        dependents = self._store.dependents(meta["uid"])
        if not dependents:
            self._unfinalize(res, meta["namespace"], meta["name"], FOREGROUND)
        for dep_res, dep in dependents:
            m = dep["metadata"]
            if not m.get("deletionTimestamp"):
                delete(self._store, dep_res, m["namespace"], m["name"], "Foreground")

    def _release_owners(self, dependent: dict[str, Any]) -> None:
        """A dependent is gone: finish the foreground deletion of an owner left without any."""
        for ref in dependent["metadata"].get("ownerReferences") or []:
            owner = self._owner(dependent, ref)
            res = by_kind(ref["apiVersion"], ref["kind"])
            if owner is None or res is None:
                continue
            meta = owner["metadata"]
            if FOREGROUND in (meta.get("finalizers") or []) and not self._store.dependents(
                meta["uid"]
            ):
                self._unfinalize(res, meta["namespace"], meta["name"], FOREGROUND)

    def _owner(self, dependent: dict[str, Any], ref: dict[str, Any]) -> dict[str, Any] | None:
        res = by_kind(ref["apiVersion"], ref["kind"])
        if res is None:
            return None
        owner = self._store.get(res, dependent["metadata"]["namespace"], ref["name"])
        return owner if owner is not None and owner["metadata"]["uid"] == ref["uid"] else None

    def _unfinalize(self, res: Resource, namespace: str, name: str, finalizer: str) -> None:
        if self._store.get(res, namespace, name) is None:
            return

        def drop(o: dict[str, Any]) -> None:
            o["metadata"]["finalizers"] = [
                f for f in o["metadata"].get("finalizers") or [] if f != finalizer
            ]

        self._store.update(res, namespace, name, drop)
