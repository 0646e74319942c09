"""Runtimes (``run``), discriminated by ``run.kind``.

``job``, ``service``, ``dag``, the Kubeflow kinds ``tfjob``/``pytorchjob``/``mpijob``,
``raycluster``, ``daskcluster``, and the internal ``notifier``/``tuner``/``cleaner`` (jobs).
:data:`Runtime` is the union; :data:`RunOrPatch` also accepts a mapping without ``kind``, a
patch on the runtime of a referenced component (see :func:`axonal_spec.composition`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Literal, Union

from pydantic import BaseModel, Discriminator, Field, Tag

from axonal_spec.base import SpecModel
from axonal_spec.models.dag import Dag
from axonal_spec.models.fields import (
    TAG_PREFIX,
    BoolOrRef,
    Int,
    IntOrRef,
    OrRef,
    kind_discriminator,
)
from axonal_spec.models.k8s import Container, Environment, Init, Quantity, Volume

__all__ = [
    "DISTRIBUTED_KINDS",
    "REPLICA_FIELDS",
    "RUN_KINDS",
    "CleanerJob",
    "Dag",
    "DaskCluster",
    "DaskReplica",
    "Job",
    "KFReplica",
    "MPIJob",
    "NotifierJob",
    "PytorchElasticPolicy",
    "PytorchJob",
    "RayCluster",
    "RayReplica",
    "RunOrPatch",
    "Runtime",
    "SchedulingPolicy",
    "Service",
    "TFJob",
    "TunerJob",
]

RUN_KINDS = (
    "job",
    "service",
    "dag",
    "tfjob",
    "pytorchjob",
    "mpijob",
    "raycluster",
    "daskcluster",
    "notifier",
    "tuner",
    "cleaner",
)
#: Replica fields of each distributed kind (``raycluster`` also has the ``workers`` groups).
REPLICA_FIELDS: dict[str, tuple[str, ...]] = {
    "tfjob": ("chief", "ps", "worker", "evaluator"),
    "pytorchjob": ("master", "worker"),
    "mpijob": ("launcher", "worker"),
    "raycluster": ("head",),
    "daskcluster": ("worker", "scheduler"),
}
DISTRIBUTED_KINDS = frozenset(REPLICA_FIELDS)
CleanPodPolicy = Literal["All", "Running", "None"]


class _JobFields(SpecModel):
    """The fields of a job, shared by services and replicas."""

    environment: OrRef[Environment] | None = None
    connections: OrRef[list[str]] | None = None
    volumes: OrRef[list[Volume]] | None = None
    init: OrRef[list[Init]] | None = None
    sidecars: OrRef[list[Container]] | None = None
    container: OrRef[Container] | None = None


class Job(_JobFields):
    """A batch job: one container (plus init containers and sidecars)."""

    kind: Literal["job"] = "job"


class NotifierJob(_JobFields):
    """Internal: a notification job."""

    kind: Literal["notifier"] = "notifier"


class TunerJob(_JobFields):
    """Internal: the job suggesting the next batch of an iterative matrix."""

    kind: Literal["tuner"] = "tuner"


class CleanerJob(_JobFields):
    """Internal: a cleanup job."""

    kind: Literal["cleaner"] = "cleaner"


class Service(_JobFields):
    """A long-running service exposing ``ports``."""

    kind: Literal["service"] = "service"
    ports: OrRef[list[Int]] | None = None
    rewrite_path: BoolOrRef | None = None
    is_external: BoolOrRef | None = None
    replicas: IntOrRef | None = None


class KFReplica(_JobFields):
    """A Kubeflow replica: ``replicas`` copies of a job."""

    replicas: IntOrRef | None = None


class SchedulingPolicy(SpecModel):
    """Gang-scheduling settings of a Kubeflow job."""

    min_available: IntOrRef | None = None
    queue: str | None = None
    min_resources: dict[str, Quantity] | None = None
    priority_class: str | None = None
    schedule_timeout_seconds: IntOrRef | None = None


class _KubeflowJob(SpecModel):
    clean_pod_policy: CleanPodPolicy | None = None
    scheduling_policy: SchedulingPolicy | None = None

    def replica_types(self) -> list[str]:
        """The replica fields that are set (what a replica-shaped ``runPatch`` applies to)."""
        kind = str(getattr(self, "kind", ""))
        return [name for name in REPLICA_FIELDS.get(kind, ()) if getattr(self, name) is not None]


class TFJob(_KubeflowJob):
    """A distributed TensorFlow job."""

    kind: Literal["tfjob"] = "tfjob"
    enable_dynamic_worker: BoolOrRef | None = None
    success_policy: str | None = None
    chief: OrRef[KFReplica] | None = None
    ps: OrRef[KFReplica] | None = None
    worker: OrRef[KFReplica] | None = None
    evaluator: OrRef[KFReplica] | None = None


class PytorchElasticPolicy(SpecModel):
    """Elastic training settings (Polyaxon spells ``rdvz*`` and ``Metrics``)."""

    min_replicas: IntOrRef | None = None
    max_replicas: IntOrRef | None = None
    rdvz_backend: str | None = None
    rdvz_port: IntOrRef | None = None
    rdvz_host: str | None = None
    rdvz_id: str | None = None
    rdvz_conf: list[dict[str, Any]] | None = None
    standalone: BoolOrRef | None = None
    n_proc_per_node: IntOrRef | None = None
    max_restarts: IntOrRef | None = None
    metrics: list[dict[str, Any]] | None = Field(default=None, alias="Metrics")


class PytorchJob(_KubeflowJob):
    """A distributed PyTorch job."""

    kind: Literal["pytorchjob"] = "pytorchjob"
    elastic_policy: PytorchElasticPolicy | None = None
    n_proc_per_node: IntOrRef | None = None
    master: OrRef[KFReplica] | None = None
    worker: OrRef[KFReplica] | None = None


class MPIJob(_KubeflowJob):
    """A distributed MPI job."""

    kind: Literal["mpijob"] = "mpijob"
    slots_per_worker: IntOrRef | None = None
    launcher: OrRef[KFReplica] | None = None
    worker: OrRef[KFReplica] | None = None


class RayReplica(_JobFields):
    """The Ray head or a worker group."""

    replicas: IntOrRef | None = None
    min_replicas: IntOrRef | None = None
    max_replicas: IntOrRef | None = None
    ray_start_params: dict[str, Any] | None = None


class RayCluster(SpecModel):
    """A Ray cluster (KubeRay) running ``entrypoint``."""

    kind: Literal["raycluster"] = "raycluster"
    entrypoint: str | None = None
    runtime_env: OrRef[dict[str, Any]] | None = None
    metadata: OrRef[dict[str, Any]] | None = None
    ray_version: str | None = None
    head: OrRef[RayReplica] | None = None
    workers: dict[str, OrRef[RayReplica]] | None = None
    enable_in_tree_autoscaling: BoolOrRef | None = None
    autoscaler_options: OrRef[dict[str, Any]] | None = None

    def replica_types(self) -> list[str]:
        """``head`` (if set) and the worker group names."""
        return (["head"] if self.head is not None else []) + list(self.workers or {})


class DaskReplica(_JobFields):
    """The Dask scheduler or workers."""

    replicas: IntOrRef | None = None


class DaskCluster(SpecModel):
    """A Dask cluster."""

    kind: Literal["daskcluster"] = "daskcluster"
    worker: OrRef[DaskReplica] | None = None
    scheduler: OrRef[DaskReplica] | None = None
    min_replicas: IntOrRef | None = None
    max_replicas: IntOrRef | None = None

    def replica_types(self) -> list[str]:
        """The replica fields that are set."""
        return [name for name in ("worker", "scheduler") if getattr(self, name) is not None]


_RUNTIME_MEMBERS = Union[  # noqa: UP007
    Annotated[Job, Tag("~job")],
    Annotated[Service, Tag("~service")],
    Annotated[Dag, Tag("~dag")],
    Annotated[TFJob, Tag("~tfjob")],
    Annotated[PytorchJob, Tag("~pytorchjob")],
    Annotated[MPIJob, Tag("~mpijob")],
    Annotated[RayCluster, Tag("~raycluster")],
    Annotated[DaskCluster, Tag("~daskcluster")],
    Annotated[NotifierJob, Tag("~notifier")],
    Annotated[TunerJob, Tag("~tuner")],
    Annotated[CleanerJob, Tag("~cleaner")],
]
Runtime = Annotated[_RUNTIME_MEMBERS, kind_discriminator("run", RUN_KINDS)]


def _run_or_patch(value: Any) -> str | None:
    if isinstance(value, BaseModel):
        return f"{TAG_PREFIX}{getattr(value, 'kind', 'patch')}"
    if not isinstance(value, Mapping) or value.get("kind") is None:
        return "~patch"
    kind = value["kind"]
    return f"{TAG_PREFIX}{kind}" if isinstance(kind, str) and kind in RUN_KINDS else None


#: ``run`` as written in a file: a runtime, or a kindless patch of a referenced runtime.
RunOrPatch = Annotated[
    Union[_RUNTIME_MEMBERS, Annotated[dict[str, Any], Tag("~patch")]],  # noqa: UP007
    Discriminator(
        _run_or_patch,
        custom_error_type="spec_kind",
        custom_error_message=f"run.kind must be one of {', '.join(RUN_KINDS)}",
    ),
]
