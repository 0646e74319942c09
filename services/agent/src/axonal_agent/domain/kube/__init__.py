"""The Kubernetes executor's pure layer: a compiled run section to the manifests of one
attempt (:func:`build_workload`), and observed objects back to how it is doing
(:func:`observe`). No I/O: the adapter creates, watches and deletes what these describe."""

from axonal_agent.domain.kube.build import build_workload
from axonal_agent.domain.kube.status import Observation, observe
from axonal_agent.domain.kube.target import Cluster, Connection, SourceRef, Target
from axonal_agent.domain.kube.workload import Kind, Workload

__all__ = [
    "Cluster",
    "Connection",
    "Kind",
    "Observation",
    "SourceRef",
    "Target",
    "Workload",
    "build_workload",
    "observe",
]
