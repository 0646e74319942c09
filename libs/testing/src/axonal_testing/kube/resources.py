"""The resource types the Kubernetes API double serves, and how each is addressed.

A resource is addressed as ``/api/v1/...`` (the core group) or ``/apis/{group}/{version}/...``
(https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-uris).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Resource:
    """One resource type: its group, version, plural, kind and deletion behaviour."""

    group: str
    version: str
    plural: str
    kind: str
    # Deleting a Pod or a Service answers with the object, other types with a Status
    # (``ReturnDeletedObject`` of the registry store in kubernetes/kubernetes).
    returns_deleted: bool = False
    # batch/v1 Jobs orphan their pods unless told otherwise, for backwards compatibility;
    # every other type here deletes dependents in the background
    # (https://kubernetes.io/docs/concepts/architecture/garbage-collection/#cascading-deletion
    # and kubernetes/kubernetes#20902).
    default_policy: str = "Background"
    custom: bool = False

    @property
    def api_version(self) -> str:
        """``v1`` for the core group, ``group/version`` otherwise."""
        return f"{self.group}/{self.version}" if self.group else self.version

    @property
    def qualified(self) -> str:
        """``jobs.batch``, ``pods``: how error messages name the resource."""
        return f"{self.plural}.{self.group}" if self.group else self.plural


_BUILTIN = (
    Resource("", "v1", "pods", "Pod", returns_deleted=True),
    Resource("", "v1", "services", "Service", returns_deleted=True),
    Resource("", "v1", "secrets", "Secret"),
    Resource("", "v1", "configmaps", "ConfigMap"),
    Resource("", "v1", "events", "Event"),
    Resource("batch", "v1", "jobs", "Job", default_policy="Orphan"),
    Resource("apps", "v1", "deployments", "Deployment"),
    Resource("apps", "v1", "replicasets", "ReplicaSet"),
)

# Custom resources of the training operator, KubeRay and the Dask operator, served under
# /apis/{group}/{version}/namespaces/{namespace}/{plural} like any CRD.
_CUSTOM = (
    ("kubeflow.org", "v1", "tfjobs", "TFJob"),
    ("kubeflow.org", "v1", "pytorchjobs", "PyTorchJob"),
    ("kubeflow.org", "v1", "mpijobs", "MPIJob"),
    ("kubeflow.org", "v1", "xgboostjobs", "XGBoostJob"),
    ("kubeflow.org", "v1", "paddlejobs", "PaddleJob"),
    ("ray.io", "v1", "rayjobs", "RayJob"),
    ("ray.io", "v1", "rayclusters", "RayCluster"),
    ("kubernetes.dask.org", "v1", "daskjobs", "DaskJob"),
    ("kubernetes.dask.org", "v1", "daskclusters", "DaskCluster"),
)

RESOURCES: dict[tuple[str, str, str], Resource] = {
    (r.group, r.version, r.plural): r
    for r in (*_BUILTIN, *(Resource(g, v, p, k, custom=True) for g, v, p, k in _CUSTOM))
}


def resource(group: str, version: str, plural: str) -> Resource | None:
    """The resource served at this group, version and plural, if any."""
    return RESOURCES.get((group, version, plural))


def by_plural(plural: str) -> Resource:
    """The one resource with this plural (every plural here is unique)."""
    found = [r for r in RESOURCES.values() if r.plural == plural]
    if len(found) != 1:
        raise KeyError(plural)
    return found[0]


def by_kind(api_version: str, kind: str) -> Resource | None:
    """The resource of an ownerReference's ``apiVersion`` and ``kind``."""
    return next(
        (r for r in RESOURCES.values() if r.api_version == api_version and r.kind == kind), None
    )
