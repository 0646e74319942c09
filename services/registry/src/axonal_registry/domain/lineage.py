"""The lineage graph of a model version: the datasets and runs upstream of it.

Nodes are ``dataset:<name>@<sha256>`` (an artifact version a run read), ``run:<uuid>`` and
``model:<name>/<version>``; edges go the way data flowed: a dataset version ``read`` by a run,
a run that ``wrote`` a dataset version another run read, a run whose artifact was
``registered`` as the model version.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Graph", "Used", "dataset_id", "model_id", "run_id"]


@dataclass(frozen=True, slots=True)
class Used:
    """A run's artifact version: read (``is_input``) or written."""

    run_uuid: str
    name: str
    sha256: str
    kind: str
    size: int
    is_input: bool


def dataset_id(name: str, sha256: str) -> str:
    return f"dataset:{name}@{sha256}"


def run_id(run_uuid: str) -> str:
    return f"run:{run_uuid}"


def model_id(model: str, version: int) -> str:
    return f"model:{model}/{version}"


@dataclass
class Graph:
    """Nodes (id -> kind, label, attributes) and edges (source, target, relation), no repeats."""

    nodes: dict[str, tuple[str, str, dict[str, Any]]] = field(default_factory=dict)
    edges: list[tuple[str, str, str]] = field(default_factory=list)

    def node(
        self, node_id: str, kind: str, label: str, attributes: dict[str, Any] | None = None
    ) -> str:
        self.nodes.setdefault(node_id, (kind, label, attributes or {}))
        return node_id

    def edge(self, source: str, target: str, relation: str) -> None:
        if (source, target, relation) not in self.edges:
            self.edges.append((source, target, relation))

    def model_version(self, model: str, version: int, run_uuid: str, **attributes: Any) -> None:
        """The model version and the run it was registered from."""
        label = f"{model} v{version}"
        target = self.node(model_id(model, version), "model_version", label, attributes)
        self.edge(self.node(run_id(run_uuid), "run", run_uuid), target, "registered")

    def run_used(self, used: Iterable[Used]) -> list[tuple[str, str]]:
        """Add what runs read; the (name, sha256) of each dataset version read, to follow."""
        read: list[tuple[str, str]] = []
        for item in used:
            if not item.is_input:
                continue
            dataset = self.node(
                dataset_id(item.name, item.sha256),
                "dataset",
                f"{item.name}@{item.sha256[:12]}",
                {"name": item.name, "sha256": item.sha256, "kind": item.kind, "size": item.size},
            )
            self.edge(dataset, self.node(run_id(item.run_uuid), "run", item.run_uuid), "read")
            read.append((item.name, item.sha256))
        return read

    def producers(self, name: str, sha256: str, runs: Iterable[str]) -> list[str]:
        """Runs that wrote the dataset version; those not in the graph yet, to follow."""
        new: list[str] = []
        for run_uuid in runs:
            node = run_id(run_uuid)
            if node not in self.nodes:
                new.append(run_uuid)
            self.edge(self.node(node, "run", run_uuid), dataset_id(name, sha256), "wrote")
        return new
