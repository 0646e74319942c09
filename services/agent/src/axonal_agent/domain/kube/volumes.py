"""The volumes every pod of an attempt may have: its artifacts folder and the store (pure).

The artifacts volume is mounted at :data:`CONTEXT_ARTIFACTS` in the main containers, the
sidecars and the init steps: the attempt's folder (``<uuid>/<attempt>``) of the cluster's
artifacts claim, as the local agent's work root holds it, or an emptyDir. The artifacts store
(``store_claim``) is mounted read-only at :data:`STORE_PATH`, in the init steps that copy
from it only.
"""

from __future__ import annotations

from typing import Any

from axonal_agent.domain.kube.target import CONTEXT_ARTIFACTS, STORE_PATH, Target

__all__ = [
    "ARTIFACTS_VOLUME",
    "STORE_VOLUME",
    "artifacts_mount",
    "artifacts_volume",
    "store_mount",
    "store_volume",
]

ARTIFACTS_VOLUME = "plx-artifacts"
STORE_VOLUME = "plx-store"


def artifacts_volume(target: Target) -> dict[str, Any]:
    claim = target.cluster.artifacts_claim
    if claim is None:
        return {"name": ARTIFACTS_VOLUME, "emptyDir": {}}
    return {"name": ARTIFACTS_VOLUME, "persistentVolumeClaim": {"claimName": claim}}


def artifacts_mount(target: Target) -> dict[str, Any]:
    mount = {"name": ARTIFACTS_VOLUME, "mountPath": CONTEXT_ARTIFACTS}
    if target.cluster.artifacts_claim is not None:
        mount["subPath"] = target.workspace
    return mount


def store_volume(claim: str) -> dict[str, Any]:
    return {
        "name": STORE_VOLUME,
        "persistentVolumeClaim": {"claimName": claim, "readOnly": True},
    }


def store_mount() -> dict[str, Any]:
    return {"name": STORE_VOLUME, "mountPath": STORE_PATH, "readOnly": True}
